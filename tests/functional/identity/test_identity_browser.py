"""The site pages in a real headless Chromium: consent flow, pairing page and SSO landing."""

from __future__ import annotations

import re
import shutil
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest
import requests

from models.identity import accounts, applications
from models.identity.tables import User
from tests.functional.identity.live import live_app, scratch_database, serve, signed_post
from tests.support import Creds

CHROMIUM, CHROMEDRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"
PASSWORD = "browser-pass-1"

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not (shutil.which(CHROMIUM) and shutil.which(CHROMEDRIVER)),
                                 reason="Debian's chromium and chromium-driver are not installed")]


@pytest.fixture()
def browser(tmp_path):
    """Headless Chromium driven through chromedriver, with a fresh profile."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage", f"--user-data-dir={tmp_path / 'profile'}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(30)
    yield driver
    driver.quit()


@pytest.fixture()
def site(settings, quota):
    """A live server over a committed scratch database: (base URL, platform)."""
    with scratch_database("browser") as url:
        app = live_app(settings.replace(site_url="http://127.0.0.1"), url, quota=quota)
        platform = app.app.extensions["modhub"]
        with serve(app) as base:
            yield base, platform
        platform.db.engine.dispose()


def _seed(platform, redirect_uri: str) -> tuple[Creds, int]:
    with platform.db.session() as session, session.begin():
        made = applications.create(session, platform.secrets, name="Panel", approve=True,
                                   permissions=["user:proxy"], redirect_uris=[redirect_uri],
                                   scopes=["post:write"])
        user = User(username="crafter", login_name="crafter_login",
                    password_hash=accounts.hash_password(PASSWORD))
        session.add(user)
        session.flush()
        return Creds(made.app_id, made.api_key, made.secret_key), user.id


def _wait(driver, css: str):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions
    from selenium.webdriver.support.ui import WebDriverWait
    return WebDriverWait(driver, 20).until(
        expected_conditions.presence_of_element_located((By.CSS_SELECTOR, css)))


def _profile(base: str, creds: Creds, token: str) -> dict:
    path = "/openapi/v1/user/profile"
    return requests.get(base + path, timeout=30, headers={
        **creds.headers("GET", path), "X-Proxy-Access-Token": token}).json()


def test_consent_pairing_and_sso_in_a_real_browser(browser, site):
    base, platform = site
    redirect_uri = f"{base}/"
    creds, user_id = _seed(platform, redirect_uri)

    # Consent: the app sends the user to the authorization page; they log in, then agree.
    query = urlencode({"app_id": creds.app_id, "redirect_uri": redirect_uri, "state": "s-1"})
    browser.get(f"{base}/openapi-authorize?{query}")
    _wait(browser, "#login").send_keys("crafter_login")
    browser.find_element("css selector", "#password").send_keys(PASSWORD)
    browser.find_element("css selector", "#submit").click()
    assert _wait(browser, "#app-name").text == "Panel"
    browser.find_element("css selector", "#allow").click()
    _wait(browser, "#who")
    landed = parse_qs(urlsplit(browser.current_url).query)
    assert landed["state"] == ["s-1"] and re.fullmatch(r"[A-Z0-9]{6}", landed["auth_code"][0])
    issued = signed_post(base, creds, "/openapi/v2/oauth/token", {},
                         {"userId": user_id, "authCode": landed["auth_code"][0]}).json()
    assert issued["code"] == 0 and issued["data"]["scopes"] == ["post:write"]
    assert _profile(base, creds, issued["data"]["accessToken"])["data"]["userId"] == user_id

    # Pairing: the logged-in user generates a code that a panel redeems.
    browser.get(f"{base}/pairing")
    _wait(browser, "#generate").click()
    code = _wait(browser, "#code").text
    redeemed = signed_post(base, creds, "/openapi/v2/pairing/redeem", {}, {"pairingCode": code}).json()
    assert redeemed["code"] == 0 and redeemed["data"]["userId"] == str(user_id)

    # SSO: a logged-out browser opens a site URL carrying a one-time ticket.
    browser.delete_all_cookies()
    browser.get(f"{base}/")
    assert "not logged in" in _wait(browser, "#who").text
    ticket = signed_post(base, creds, "/openapi/v2/sso/exchange",
                         {"X-Proxy-Access-Token": issued["data"]["accessToken"]}, {}).json()
    browser.get(f"{base}/?sso_ticket={ticket['data']['ticket']}")
    assert "Logged in as crafter" in _wait(browser, "#who").text
    assert "sso_ticket" not in browser.current_url
    browser.delete_all_cookies()
    browser.get(f"{base}/?sso_ticket={ticket['data']['ticket']}")
    assert _wait(browser, "#error-code").text == "200914"

    # The browser-issued token acts on a T operation until it is revoked, then at once no more.
    acting = {"X-Proxy-Access-Token": issued["data"]["accessToken"]}
    link = {"externalUserId": "ext-browser-1"}
    assert signed_post(base, creds, "/openapi/v2/user-binding/link", acting, link).json()["code"] == 0
    assert signed_post(base, creds, "/openapi/v2/oauth/revoke", acting, {}).json()["data"] is True
    refused = signed_post(base, creds, "/openapi/v2/user-binding/link", acting, link).json()
    assert refused["code"] == 200213
