"""Every site page is styled by the one stylesheet file, under a strict CSP, in real Chromium."""

from __future__ import annotations

from urllib.parse import urlencode

import requests

from models.identity import accounts, applications
from models.identity.tables import User
from tests.helpers.catalog import Catalogue
from tests.functional.site.browser import assert_styled, needs_chromium, wait

PASSWORD = "style-pass-1"
STRICT_CSP = "default-src 'self'; frame-ancestors 'none'"


def _seed(platform, redirect_uri: str) -> int:
    with platform.db.session() as session, session.begin():
        made = applications.create(
            session,
            platform.secrets,
            name="Styled",
            approve=True,
            permissions=["user:proxy"],
            redirect_uris=[redirect_uri],
        )
        session.add(
            User(username="styler", login_name="styler_login", password_hash=accounts.hash_password(PASSWORD))
        )
        return made.app_id


def test_pages_and_stylesheet_carry_the_strict_csp(client):
    page = client.get("/login")
    assert page.status_code == 200 and page.headers["content-security-policy"] == STRICT_CSP
    assert "<style" not in page.text and "style=" not in page.text and "<script" not in page.text
    assert '<link rel="stylesheet" href="/site-static/site.css">' in page.text
    sheet = client.get("/site-static/site.css")
    assert sheet.status_code == 200 and sheet.headers["content-type"].startswith("text/css")
    assert "font-family" in sheet.text


@needs_chromium
def test_every_page_is_styled_in_chromium(browser, site, shots):
    base, platform = site
    app_id = _seed(platform, f"{base}/")
    assert requests.get(f"{base}/", timeout=30).headers["Content-Security-Policy"] == STRICT_CSP

    browser.get(f"{base}/")
    wait(browser, "#who")
    assert_styled(browser, shots, "home-anonymous")
    cat = Catalogue(platform.db)
    cat.section()
    browser.get(f"{base}/resource/{cat.post()}")
    wait(browser, "#resource-name")
    assert_styled(browser, shots, "resource")
    browser.get(f"{base}/login")
    wait(browser, "#login").send_keys("styler_login")
    assert_styled(browser, shots, "login")
    browser.find_element("css selector", "#password").send_keys(PASSWORD)
    browser.find_element("css selector", "#submit").click()
    wait(browser, "#logout")
    assert_styled(browser, shots, "home")
    browser.get(f"{base}/pairing")
    wait(browser, "#generate").click()
    wait(browser, "#code")
    assert_styled(browser, shots, "pairing")
    browser.get(f"{base}/openapi-authorize?" + urlencode({"app_id": app_id, "redirect_uri": f"{base}/"}))
    wait(browser, "#app-name")
    assert_styled(browser, shots, "authorize")
    browser.get(f"{base}/openapi-authorize?app_id=x")
    wait(browser, "#error-code")
    assert_styled(browser, shots, "error")

    browser.set_window_size(375, 800)  # a phone: the column fills the screen, buttons full width
    browser.get(f"{base}/pairing")
    wait(browser, "#generate")
    assert_styled(browser, shots, "pairing-phone")
    button = browser.find_element("css selector", "#generate")
    main = browser.find_element("css selector", "main")
    assert button.size["width"] > main.size["width"] * 0.8
