"""Headless Chromium for the site tests: the driver, screenshots and the stylesheet check."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest

CHROMIUM, CHROMEDRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"

needs_chromium = pytest.mark.skipif(
    not (shutil.which(CHROMIUM) and shutil.which(CHROMEDRIVER)),
    reason="Debian's chromium and chromium-driver are not installed",
)


def start_browser(profile: Path, width: int = 1280, height: int = 900):
    """Headless Chromium driven through chromedriver, with a fresh profile."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in (
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-dev-shm-usage",
        f"--window-size={width},{height}",
        f"--user-data-dir={profile}",
    ):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})  # the console log, for CSP
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(30)
    return driver


def artifact_dir(tmp_path: Path) -> Path:
    """Where screenshots go: $MODHUB_TEST_ARTIFACTS if set, else the test's tmp folder."""
    root = Path(os.environ.get("MODHUB_TEST_ARTIFACTS") or tmp_path / "artifacts")
    root.mkdir(parents=True, exist_ok=True)
    return root


def wait(driver, css: str):
    """The element matching `css` once present (up to 20 s)."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, 20).until(
        expected_conditions.presence_of_element_located((By.CSS_SELECTOR, css))
    )


def computed(driver, css: str, prop: str) -> str:
    """The computed value of a CSS property of the first element matching `css`."""
    return driver.execute_script(
        "return getComputedStyle(document.querySelector(arguments[0])).getPropertyValue(arguments[1]);",
        css,
        prop,
    )


def csp_violations(driver) -> list[str]:
    """Console messages since the last call that report something the CSP blocked."""
    return [
        entry["message"]
        for entry in driver.get_log("browser")
        if "Content Security Policy" in entry["message"] or "Refused to" in entry["message"]
    ]


def assert_styled(driver, folder: Path, name: str) -> Path:
    """Save a screenshot, check that site.css applies (computed font and layout, not defaults)
    and that the CSP blocked nothing on the page (the browser's console log)."""
    assert csp_violations(driver) == []
    shot = folder / f"{name}.png"
    assert driver.save_screenshot(str(shot)) and shot.stat().st_size > 1000
    font = computed(driver, "body", "font-family")
    assert "DejaVu Sans" in font and "Times" not in font, font
    assert computed(driver, "body", "margin-top") == "0px"  # default is 8px
    assert computed(driver, ".site-header", "display") == "flex"  # default is block
    assert computed(driver, ".site-header", "background-color") == "rgb(31, 35, 40)"
    width = float(re.sub(r"px$", "", computed(driver, "main", "width")))
    viewport = driver.execute_script("return document.documentElement.clientWidth;")
    assert width < viewport or viewport <= 640  # a centred column on wide screens
    return shot
