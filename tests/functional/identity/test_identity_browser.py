"""The site pages in a real headless Chromium: consent flow, pairing page and SSO landing."""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest
import requests

from models.identity import accounts, applications
from models.identity.tables import User
from tests.functional.site.browser import needs_chromium, wait
from tests.signing import Creds, signed_post

PASSWORD = "browser-pass-1"

pytestmark = [pytest.mark.slow, needs_chromium]


def _seed(platform, redirect_uri: str) -> tuple[Creds, int]:
    with platform.db.session() as session, session.begin():
        made = applications.create(
            session,
            platform.secrets,
            name="Panel",
            approve=True,
            permissions=["user:proxy"],
            redirect_uris=[redirect_uri],
            scopes=["post:write"],
        )
        user = User(
            username="crafter", login_name="crafter_login", password_hash=accounts.hash_password(PASSWORD)
        )
        session.add(user)
        session.flush()
        return Creds(made.app_id, made.api_key, made.secret_key), user.id


def _profile(base: str, creds: Creds, token: str) -> dict:
    path = "/openapi/v1/user/profile"
    return requests.get(
        base + path, timeout=30, headers={**creds.headers("GET", path), "X-Proxy-Access-Token": token}
    ).json()


def test_consent_pairing_and_sso_in_a_real_browser(browser, site):
    base, platform = site
    redirect_uri = f"{base}/"
    creds, user_id = _seed(platform, redirect_uri)

    # Consent: the app sends the user to the authorization page; they log in, then agree.
    query = urlencode({"app_id": creds.app_id, "redirect_uri": redirect_uri, "state": "s-1"})
    browser.get(f"{base}/openapi-authorize?{query}")
    wait(browser, "#login").send_keys("crafter_login")
    browser.find_element("css selector", "#password").send_keys(PASSWORD)
    browser.find_element("css selector", "#submit").click()
    assert wait(browser, "#app-name").text == "Panel"
    browser.find_element("css selector", "#allow").click()
    wait(browser, "#who")
    landed = parse_qs(urlsplit(browser.current_url).query)
    assert landed["state"] == ["s-1"] and re.fullmatch(r"[A-Z0-9]{6}", landed["auth_code"][0])
    issued = signed_post(
        base, creds, "/openapi/v2/oauth/token", {}, {"userId": user_id, "authCode": landed["auth_code"][0]}
    ).json()
    assert issued["code"] == 0 and issued["data"]["scopes"] == ["post:write"]
    assert _profile(base, creds, issued["data"]["accessToken"])["data"]["userId"] == user_id

    # Pairing: the logged-in user generates a code that a panel redeems.
    browser.get(f"{base}/pairing")
    wait(browser, "#generate").click()
    code = wait(browser, "#code").text
    redeemed = signed_post(base, creds, "/openapi/v2/pairing/redeem", {}, {"pairingCode": code}).json()
    assert redeemed["code"] == 0 and redeemed["data"]["userId"] == str(user_id)

    # SSO: a logged-out browser opens a site URL carrying a one-time ticket.
    browser.delete_all_cookies()
    browser.get(f"{base}/")
    assert "not logged in" in wait(browser, "#who").text
    ticket = signed_post(
        base, creds, "/openapi/v2/sso/exchange", {"X-Proxy-Access-Token": issued["data"]["accessToken"]}, {}
    ).json()
    browser.get(f"{base}/?sso_ticket={ticket['data']['ticket']}")
    assert "Logged in as crafter" in wait(browser, "#who").text
    assert "sso_ticket" not in browser.current_url
    browser.delete_all_cookies()
    browser.get(f"{base}/?sso_ticket={ticket['data']['ticket']}")
    assert wait(browser, "#error-code").text == "200914"

    # The browser-issued token acts on a T operation until it is revoked, then at once no more.
    acting = {"X-Proxy-Access-Token": issued["data"]["accessToken"]}
    link = {"externalUserId": "ext-browser-1"}
    assert signed_post(base, creds, "/openapi/v2/user-binding/link", acting, link).json()["code"] == 0
    assert signed_post(base, creds, "/openapi/v2/oauth/revoke", acting, {}).json()["data"] is True
    refused = signed_post(base, creds, "/openapi/v2/user-binding/link", acting, link).json()
    assert refused["code"] == 200213
