"""The console and admin pages in real Chromium: register, approve, secret once, styled screenshots."""

from __future__ import annotations

import requests

from models.console import service
from models.identity import accounts
from models.identity.tables import User
from tests.functional.site.browser import assert_styled, needs_chromium, wait
from tests.support import Creds

PASSWORD = "console-browser-1"


def _people(platform) -> dict:
    with platform.db.session() as session, session.begin():
        users = {
            name: User(
                username=name, login_name=f"{name}_login", password_hash=accounts.hash_password(PASSWORD)
            )
            for name in ("dev", "boss")
        }
        session.add_all(users.values())
        session.flush()
        service.set_role(session, user_id=users["boss"].id, role="admin")
        return {name: user.id for name, user in users.items()}


def _log_in(browser, base, name):
    browser.delete_all_cookies()
    browser.get(f"{base}/login?next=/console")
    wait(browser, "#login").send_keys(f"{name}_login")
    browser.find_element("css selector", "#password").send_keys(PASSWORD)
    browser.find_element("css selector", "#submit").click()
    wait(browser, "#register")  # logged in and on the console before going on


@needs_chromium
def test_register_approve_and_see_the_secret_once(browser, site, shots):
    base, platform = site
    _people(platform)
    _log_in(browser, base, "dev")
    wait(browser, "#register")
    assert_styled(browser, shots, "console-empty")
    browser.find_element("css selector", "#name").send_keys("Browser launcher")
    browser.find_element("css selector", "#description").send_keys("Made in Chromium")
    browser.find_element("css selector", "#redirect_uris").send_keys(f"{base}/")
    browser.find_element("css selector", "#want-1").click()
    browser.find_element("css selector", "#register-submit").click()
    assert wait(browser, "#status").text == "PENDING"
    assert_styled(browser, shots, "console-app-pending")
    app_id = int(browser.find_element("css selector", "#app-id").text)
    api_key = browser.find_element("css selector", "#api-key").text
    browser.get(f"{base}/admin")  # no admin role: refused, on a styled page
    wait(browser, "#error-code")
    assert "administrators" in browser.find_element("css selector", "#error").text
    assert_styled(browser, shots, "admin-refused")

    _log_in(browser, base, "boss")
    browser.get(f"{base}/admin")
    wait(browser, f"#proxy-{app_id}").click()
    browser.find_element("css selector", f"#pm-{app_id}").send_keys("30")
    assert_styled(browser, shots, "admin-pending")
    browser.find_element("css selector", f"#approve-{app_id}").click()
    wait(browser, "#no-pending")
    assert browser.find_element("css selector", ".audit-action").text == "approve"
    assert_styled(browser, shots, "admin-audit")

    _log_in(browser, base, "dev")
    browser.get(f"{base}/console/apps/{app_id}")
    wait(browser, "#reveal").click()
    secret = wait(browser, "#secret").text
    assert_styled(browser, shots, "console-secret-once")
    path = "/openapi/v2/games"
    answer = requests.get(
        base + path, timeout=30, headers=Creds(app_id, api_key, secret).headers("GET", path)
    ).json()
    assert answer["code"] == 0
    browser.get(f"{base}/console/apps/{app_id}")  # opened again: no secret, rotation is offered
    wait(browser, "#rotate")
    assert not browser.find_elements("css selector", "#secret")
    assert "0 used" not in browser.find_element("css selector", "#per-day").text
    browser.find_element("css selector", "#rotate").click()
    assert wait(browser, "#secret").text != secret
    assert browser.find_element("css selector", "#old-secret-ended").text
    assert_styled(browser, shots, "console-rotated")
