"""The issue's "done when", in one Chromium session: a new user registers an application in the
console, an admin approves it, the owner sees the secret once, adds a webhook to a loopback
receiver, sends a test event that arrives signed, sees it in the delivery log, redelivers it, and
makes a signed call from the docs page, all without the CLI."""

from __future__ import annotations

from types import SimpleNamespace

from tests.functional.site.browser import csp_violations, needs_chromium, wait
from tests.functional.site.test_console_browser import _log_in, _people
from tests.functional.site.test_console_webhook_browser import hook_site  # noqa: F401
from tests.functional.site.test_docs_signing import _signing_form, _try
from tests.functional.webhooks.receiver import Receiver


@needs_chromium
def test_register_approve_webhook_and_docs_call_in_one_browser(browser, hook_site, shots):  # noqa: F811
    base, platform = hook_site
    _people(platform)
    _log_in(browser, base, "dev")
    browser.find_element("css selector", "#name").send_keys("Journey")
    browser.find_element("css selector", "#register-submit").click()
    assert wait(browser, "#status").text == "PENDING"
    app_id = int(browser.find_element("css selector", "#app-id").text)
    api_key = browser.find_element("css selector", "#api-key").text

    _log_in(browser, base, "boss")
    browser.get(f"{base}/admin")
    wait(browser, f"#approve-{app_id}").click()
    wait(browser, "#no-pending")

    _log_in(browser, base, "dev")
    browser.get(f"{base}/console/apps/{app_id}")
    wait(browser, "#reveal").click()
    secret = wait(browser, "#secret").text

    receiver = Receiver().start()
    try:
        browser.get(f"{base}/console/apps/{app_id}/webhooks")
        wait(browser, "#url").send_keys(receiver.url)
        browser.find_element("css selector", "#add-hook-submit").click()
        hook_secret = wait(browser, "#hook-secret").text
        sub_id = browser.find_element("css selector", "section.pending").get_attribute("id").split("-")[1]
        browser.find_element("css selector", f"#test-{sub_id}").click()
        first = receiver.wait_for(1)[0]
        assert first.json["event"] == "webhook.test" and first.signed_by(hook_secret)
        for _ in range(50):
            browser.get(f"{base}/console/apps/{app_id}/webhooks")
            if "SUCCEEDED" in wait(browser, ".deliveries").text:
                break
        assert "SUCCEEDED" in browser.find_element("css selector", ".deliveries").text
        browser.find_element("css selector", ".deliveries button").click()
        second = receiver.wait_for(2)[1]
        assert second.headers["x-webhook-id"] == first.headers["x-webhook-id"]
        assert second.signed_by(hook_secret)
    finally:
        receiver.stop()

    _signing_form(browser, base, SimpleNamespace(api_key=api_key, secret_key=secret), "catalog/listGames")
    answer = _try(browser, "#operations-catalog-listGames")
    assert answer["code"] == 0, answer
    assert csp_violations(browser) == []
    browser.save_screenshot(str(shots / "journey-docs-call.png"))
