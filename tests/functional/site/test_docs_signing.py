"""The docs page signs "Try it out" requests in the browser: K, P and T operations answer code 0,
under a strict Content-Security-Policy that blocks nothing on the page."""

from __future__ import annotations

import json
import re
from urllib.parse import urlencode

import requests

from models.identity import accounts, applications
from models.identity.tables import User
from modhub.docs_ui import DOCS_CSP
from tests.functional.site.browser import assert_styled, csp_violations, needs_chromium, wait

DOCS = "/openapi/v2/meta/docs/"
PASSWORD = "docs-pass-1"


def test_docs_page_is_files_only_under_a_strict_csp(client):
    page = client.get(DOCS)
    assert page.status_code == 200 and page.headers["content-security-policy"] == DOCS_CSP
    assert "'unsafe-inline'" not in DOCS_CSP and "'unsafe-eval'" not in DOCS_CSP
    assert page.headers["x-frame-options"] == "DENY"
    assert "<style" not in page.text and " style=" not in page.text
    assert not re.search(r"<script(?![^>]*\bsrc=)", page.text)  # every script is a file
    assert not re.search(r"\son[a-z]+=", page.text)  # no inline event handler
    assert '<script src="/site-static/docs-sign.js"' in page.text and 'id="sign-secret"' in page.text
    assets = re.findall(r'(?:src|href)="([^"#]+\.(?:js|css|png))"', page.text)
    assert len(assets) >= 5
    for asset in assets:  # relative ones are the Swagger UI bundle's own files
        url = asset if asset.startswith("/") else DOCS + asset
        assert client.get(url).status_code == 200, url
    script = client.get("/site-static/docs-sign.js")
    assert script.status_code == 200 and "crypto.subtle" in script.text
    assert "requestInterceptor" in script.text
    assert "localStorage" not in script.text and "sessionStorage" not in script.text


def _signing_form(browser, base, app, fragment: str):
    browser.get(f"{base}{DOCS}#/{fragment}")
    wait(browser, "#sign-key").send_keys(app.api_key)
    browser.find_element("css selector", "#sign-secret").send_keys(app.secret_key)


def _try(browser, op: str, params: dict | None = None, body: str | None = None) -> dict:
    """Open an operation block, fill it, Execute, and return the JSON answer shown."""
    from selenium.webdriver.common.keys import Keys

    block = wait(browser, op)
    if not block.find_elements("css selector", ".try-out__btn"):
        block.find_element("css selector", ".opblock-summary").click()
    wait(browser, f"{op} .try-out__btn").click()
    for name, value in (params or {}).items():
        field = wait(browser, f'{op} input[placeholder="{name}"]')
        field.clear()
        field.send_keys(value)
    if body is not None:
        area = wait(browser, f"{op} textarea.body-param__text")
        area.send_keys(Keys.CONTROL, "a")
        area.send_keys(Keys.DELETE)
        # One input event for the whole text, as a paste: typed key by key, Swagger UI renders
        # the page again per character (70 characters cost 3 s to 7 s of the renderer's CPU).
        browser.execute_cdp_cmd("Input.insertText", {"text": body})
    wait(browser, f"{op} .execute").click()
    shown = wait(browser, f"{op} .live-responses-table .response-col_description pre.microlight")
    return json.loads(shown.text)


@needs_chromium
def test_try_it_out_of_a_k_operation_is_signed(browser, site, shots):
    base, platform = site
    with platform.db.session() as session, session.begin():
        made = applications.create(session, platform.secrets, name="Docs", approve=True)
    unsigned = requests.get(f"{base}/openapi/v2/games", timeout=30).json()
    assert unsigned["code"] == 200201
    assert requests.get(f"{base}{DOCS}", timeout=30).headers["Content-Security-Policy"] == DOCS_CSP

    _signing_form(browser, base, made, "catalog/listGames")
    assert made.api_key in browser.find_element("css selector", "#sign-state").text
    wait(browser, "#operations-catalog-listGames")
    # The first screen: quick start and the whole key + secret form, the long reference below it.
    height = browser.execute_script("return window.innerHeight;")
    form = browser.execute_script(
        "return document.getElementById('sign-form').getBoundingClientRect().bottom;"
    )
    reference = browser.execute_script(
        "return document.querySelector('#swagger-ui .information-container').getBoundingClientRect().top;"
    )
    assert 0 < form <= height and reference > form
    assert browser.find_element("css selector", "#quick-start p").is_displayed()
    assert browser.find_element("css selector", "#sign-token").is_displayed()
    assert_styled(browser, shots, "docs")  # also: nothing refused by the CSP

    answer = _try(browser, "#operations-catalog-listGames")
    assert answer["code"] == 0, answer
    assert csp_violations(browser) == []
    browser.save_screenshot(str(shots / "docs-try-it-out.png"))
    storage = browser.execute_script("return JSON.stringify(localStorage) + JSON.stringify(sessionStorage);")
    assert made.secret_key not in storage and made.secret_key not in repr(browser.get_cookies())

    browser.set_window_size(375, 800)  # a phone: one column, the form still fits the width
    browser.get(f"{base}{DOCS}")
    wait(browser, "#swagger-ui .information-container")
    assert_styled(browser, shots, "docs-phone")
    assert browser.execute_script("return document.documentElement.scrollWidth;") <= 375 + 1
    key_box = browser.find_element("css selector", "#sign-key").rect
    secret_box = browser.find_element("css selector", "#sign-secret").rect
    assert secret_box["y"] > key_box["y"]  # stacked, not side by side

    # The detector above is not blind: an inline script is refused and reported.
    browser.execute_script(
        "var s = document.createElement('script'); s.textContent = 'window.x = 1';"
        "document.body.appendChild(s);"
    )
    assert browser.execute_script("return window.x;") is None
    assert any("script-src" in line or "default-src" in line for line in csp_violations(browser))


@needs_chromium
def test_try_it_out_of_a_p_operation_carries_the_proxy_user(browser, site, shots):
    base, platform = site
    with platform.db.session() as session, session.begin():
        made = applications.create(
            session, platform.secrets, name="Docs P", approve=True, permissions=["user:proxy"]
        )
        user = User(username="docs-user")
        session.add(user)
        session.flush()
        user_id = user.id
    _signing_form(browser, base, made, "legacy/legacyGetUserProfile")
    browser.find_element("css selector", "#sign-user").send_keys(str(user_id))
    answer = _try(browser, "#operations-legacy-legacyGetUserProfile")
    assert answer["code"] == 0 and answer["data"]["userId"] == user_id, answer
    assert csp_violations(browser) == []
    browser.save_screenshot(str(shots / "docs-try-it-out-p.png"))


@needs_chromium
def test_try_it_out_of_a_t_operation_with_a_token_from_the_consent_flow(browser, site, shots):
    """Log in, consent, read the code on the demo callback page, exchange it from the docs page
    (the token fills the form), then a T operation answers code 0, all in one browser."""
    base, platform = site
    callback = f"{base}/demo/callback"
    with platform.db.session() as session, session.begin():
        made = applications.create(
            session,
            platform.secrets,
            name="Docs T",
            approve=True,
            permissions=["user:proxy"],
            redirect_uris=[callback],
        )
        user = User(
            username="docs-t", login_name="docs_t_login", password_hash=accounts.hash_password(PASSWORD)
        )
        session.add(user)
        session.flush()
        user_id = user.id

    browser.get(f"{base}/login")
    wait(browser, "#login").send_keys("docs_t_login")
    browser.find_element("css selector", "#password").send_keys(PASSWORD)
    browser.find_element("css selector", "#submit").click()
    wait(browser, "#logout")
    browser.get(
        f"{base}/openapi-authorize?"
        + urlencode({"app_id": made.app_id, "redirect_uri": callback, "state": "docs"})
    )
    wait(browser, "#allow").click()
    code = wait(browser, "#auth-code").text
    assert browser.find_element("css selector", "#user-id").text == str(user_id)
    assert browser.find_element("css selector", "#state").text == "docs"
    assert_styled(browser, shots, "demo-callback")

    # Without a token the T operation is refused: the token really is what makes it pass.
    _signing_form(browser, base, made, "identity/issueAccessToken")
    browser.find_element("css selector", "#sign-user").send_keys(str(user_id))
    refused = _try(browser, "#operations-identity-getProxyUserPoints", params={"userId": str(user_id)})
    assert refused["code"] == 200210, refused

    issued = _try(
        browser,
        "#operations-identity-issueAccessToken",
        body=json.dumps({"userId": user_id, "authCode": code}),
    )
    assert issued["code"] == 0 and issued["data"]["userId"] == str(user_id), issued
    token = issued["data"]["accessToken"]
    assert browser.execute_script("return document.getElementById('sign-token').value;") == token
    assert "Proxy access token set" in browser.find_element("css selector", "#sign-state").text

    browser.get(f"{base}/")  # leave and come back: the page forgot the key, secret and token
    browser.get(f"{base}{DOCS}#/identity/getProxyUserPoints")
    for field in ("#sign-key", "#sign-secret", "#sign-user", "#sign-token"):
        assert wait(browser, field).get_attribute("value") == "", field
    browser.find_element("css selector", "#sign-key").send_keys(made.api_key)
    browser.find_element("css selector", "#sign-secret").send_keys(made.secret_key)
    browser.find_element("css selector", "#sign-user").send_keys(str(user_id))
    browser.find_element("css selector", "#sign-token").send_keys(token)
    answer = _try(browser, "#operations-identity-getProxyUserPoints", params={"userId": str(user_id)})
    assert answer["code"] == 0, answer
    assert csp_violations(browser) == []
    browser.save_screenshot(str(shots / "docs-try-it-out-t.png"))
    storage = browser.execute_script("return JSON.stringify(localStorage) + JSON.stringify(sessionStorage);")
    assert token not in storage and made.secret_key not in storage
