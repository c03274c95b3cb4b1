"""Webhooks from the console in Chromium: add a loopback receiver, send a test event, it arrives
signed, the delivery shows in the log, redeliver it."""

from __future__ import annotations

import pytest

from models.console import admin, service
from models.identity import accounts
from models.identity.tables import User
from tests.functional.identity.live import live_app, scratch_database, serve
from tests.functional.site.browser import assert_styled, needs_chromium, wait
from tests.functional.webhooks.receiver import Receiver
from workers import embedded

PASSWORD = "hooks-browser-1"


@pytest.fixture()
def hook_site(settings, quota):
    """A live server that may call loopback receivers, with the in-process relay running."""
    with scratch_database("hooks") as url:
        app = live_app(
            settings.replace(
                site_url="http://127.0.0.1",
                webhook_allow_private=True,
                webhook_sweep_seconds=0.2,
                webhook_timeout_seconds=2,
            ),
            url,
            quota=quota,
        )
        platform = app.app.extensions["modhub"]
        relay = embedded.start(platform)
        try:
            with serve(app) as base:
                yield base, platform
        finally:
            relay.stop()
            platform.db.engine.dispose()


@needs_chromium
def test_test_event_arrives_signed_and_is_redelivered(browser, hook_site, shots):
    base, platform = hook_site
    with platform.db.session() as session, session.begin():
        dev = User(
            username="hooker", login_name="hooker_login", password_hash=accounts.hash_password(PASSWORD)
        )
        session.add(dev)
        session.flush()
        app_id = service.register(
            session,
            platform.secrets,
            owner_user_id=dev.id,
            name="Hooks",
            description="",
            redirect_uris=[],
            ip_allow=[],
            wanted_permissions=[],
        ).app_id
        admin.approve(session, actor=dev.id, app_id=app_id, proxy=False, per_minute=None, per_day=None)
    receiver = Receiver().start()
    try:
        browser.get(f"{base}/login?next=/console/apps/{app_id}/webhooks")
        wait(browser, "#login").send_keys("hooker_login")
        browser.find_element("css selector", "#password").send_keys(PASSWORD)
        browser.find_element("css selector", "#submit").click()
        wait(browser, "#url").send_keys(receiver.url)
        browser.find_element("css selector", "#add-hook-submit").click()
        secret = wait(browser, "#hook-secret").text
        sub_id = browser.find_element("css selector", "section.pending").get_attribute("id").split("-")[1]
        browser.find_element("css selector", f"#test-{sub_id}").click()
        first = receiver.wait_for(1)[0]
        assert first.json["event"] == "webhook.test" and first.signed_by(secret)
        for _ in range(50):  # the log row turns SUCCEEDED once the relay recorded the attempt
            browser.get(f"{base}/console/apps/{app_id}/webhooks")
            if "SUCCEEDED" in wait(browser, ".deliveries").text:
                break
        assert "SUCCEEDED" in browser.find_element("css selector", ".deliveries").text
        assert_styled(browser, shots, "console-webhooks")
        browser.find_element("css selector", ".deliveries button").click()
        second = receiver.wait_for(2)[1]
        assert second.headers["x-webhook-id"] == first.headers["x-webhook-id"] and second.signed_by(secret)
    finally:
        receiver.stop()
