"""OAuth end to end: the consent page reached through authorize_url(), the redirect read with
parse_redirect(), the code exchanged, and the token used on a write with an Idempotency-Key."""

from __future__ import annotations

import re

import httpx
import pytest
from modhub_client import InvalidRequest, ProxyUser, ops, parse_redirect


def _csrf(page: httpx.Response) -> str:
    return re.search(r'name="csrf_token" value="([^"]+)"', page.text).group(1)


def test_authorize_exchange_and_an_idempotent_write(server, client):
    redirect_uri = f"{server.base_url}/demo/callback"
    with httpx.Client(base_url=server.base_url) as browser:  # the user's browser, with cookies
        login = browser.get("/login")
        assert (
            browser.post(
                "/login",
                data={
                    "login": "demo",
                    "password": server.demo_password,
                    "csrf_token": _csrf(login),
                    "next": "/",
                },
            ).status_code
            == 302
        )
        consent = browser.get(client.authorize_url(server.app_id, redirect_uri, state="st-1"))
        assert consent.status_code == 200
        answer = browser.post(
            "/openapi-authorize",
            data={
                "app_id": str(server.app_id),
                "redirect_uri": redirect_uri,
                "state": "st-1",
                "decision": "allow",
                "csrf_token": _csrf(consent),
            },
        )
        assert answer.status_code == 302
        back = parse_redirect(answer.headers["Location"], expected_state="st-1")
        assert back.auth_code and back.error is None
        user_id = back.user_id
        if user_id is None:  # the redirect names no user today: the demo callback page shows it
            user_id = int(
                re.search(r'id="user-id">(\d+)<', browser.get(answer.headers["Location"]).text).group(1)
            )
    with pytest.raises(ValueError):
        parse_redirect(answer.headers["Location"], expected_state="forged")

    token = client.exchange_code(back.auth_code, user_id)
    assert token["accessToken"] and token["userId"] == str(user_id)
    with pytest.raises(InvalidRequest) as caught:
        client.exchange_code(back.auth_code, user_id)  # single use
    assert caught.value.code == 200911

    user = ProxyUser(user_id, token["accessToken"])
    body = {"amount": 5, "reason": "sdk test", "direction": "ADD"}
    first = client.call(ops.adjust_points(user_id, body, idempotency_key="sdk-test-1"), user)
    again = client.call(ops.adjust_points(user_id, body, idempotency_key="sdk-test-1"), user)
    assert first == again  # the same key: the first answer, applied once
    points = client.request("GET", f"/openapi/v2/proxy-user/{user_id}/points", proxy_user=user)
    assert points["balance"] == first["newBalance"] == 5  # applied once
