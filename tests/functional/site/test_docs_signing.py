"""The docs page signs "Try it out" requests in the browser: a K operation answers code 0."""

from __future__ import annotations

import json

import requests

from models.identity import applications
from tests.functional.site.browser import assert_styled, needs_chromium, wait

DOCS = "/openapi/v2/meta/docs/"


def test_docs_page_has_no_inline_script_and_loads_the_signer(client):
    page = client.get(DOCS)
    assert page.status_code == 200
    assert "<script>" not in page.text and "<style" not in page.text
    assert '<script src="/site-static/docs-sign.js"' in page.text and 'id="sign-secret"' in page.text
    script = client.get("/site-static/docs-sign.js")
    assert script.status_code == 200 and "crypto.subtle" in script.text
    assert "requestInterceptor" in script.text
    assert client.get(DOCS + "swagger-ui-bundle.js").status_code == 200


@needs_chromium
def test_try_it_out_of_a_k_operation_is_signed(browser, site, shots):
    base, platform = site
    with platform.db.session() as session, session.begin():
        made = applications.create(session, platform.secrets, name="Docs", approve=True)
    unsigned = requests.get(f"{base}/openapi/v2/games", timeout=30).json()
    assert unsigned["code"] == 200201

    browser.get(f"{base}{DOCS}#/catalog/listGames")
    wait(browser, "#sign-key").send_keys(made.api_key)
    browser.find_element("css selector", "#sign-secret").send_keys(made.secret_key)
    assert made.api_key in browser.find_element("css selector", "#sign-state").text
    block = wait(browser, "#operations-catalog-listGames")
    assert_styled(browser, shots, "docs")
    if not block.find_elements("css selector", ".try-out__btn"):
        block.find_element("css selector", ".opblock-summary").click()
    wait(browser, "#operations-catalog-listGames .try-out__btn").click()
    wait(browser, "#operations-catalog-listGames .execute").click()
    body = wait(browser, "#operations-catalog-listGames .live-responses-table .response-col_description "
                         "pre.microlight")
    answer = json.loads(body.text)
    assert answer["code"] == 0, answer
    browser.save_screenshot(str(shots / "docs-try-it-out.png"))
    storage = browser.execute_script("return JSON.stringify(localStorage) + JSON.stringify(sessionStorage);")
    assert made.secret_key not in storage and made.secret_key not in browser.get_cookies().__repr__()


@needs_chromium
def test_try_it_out_of_a_p_operation_carries_the_proxy_user(browser, site, shots):
    base, platform = site
    from models.identity.tables import User
    with platform.db.session() as session, session.begin():
        made = applications.create(session, platform.secrets, name="Docs P", approve=True,
                                   permissions=["user:proxy"])
        user = User(username="docs-user")
        session.add(user)
        session.flush()
        user_id = user.id
    op = "#operations-legacy-legacyGetUserProfile"
    browser.get(f"{base}{DOCS}#/legacy/legacyGetUserProfile")
    wait(browser, "#sign-key").send_keys(made.api_key)
    browser.find_element("css selector", "#sign-secret").send_keys(made.secret_key)
    browser.find_element("css selector", "#sign-user").send_keys(str(user_id))
    block = wait(browser, op)
    if not block.find_elements("css selector", ".try-out__btn"):
        block.find_element("css selector", ".opblock-summary").click()
    wait(browser, f"{op} .try-out__btn").click()
    wait(browser, f"{op} .execute").click()
    body = wait(browser, f"{op} .live-responses-table .response-col_description pre.microlight")
    answer = json.loads(body.text)
    assert answer["code"] == 0 and answer["data"]["userId"] == user_id, answer
    browser.save_screenshot(str(shots / "docs-try-it-out-p.png"))
