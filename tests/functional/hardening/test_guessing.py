"""Code guessing: wrong codes are counted per application, per user and per address; a locked-out
caller gets 429 / 200915 with Retry-After, and the real code still works after the cool-down."""

from __future__ import annotations

import datetime as dt

import pytest

from models.identity import oauth
from modhub.core.errors import ApiError
from modhub.guessing import LIMITS, WINDOW_SECONDS, CodeGuard
from tests.support import Clock, SignedClient

TOKEN = "/openapi/v2/oauth/token"
PAIR = "/openapi/v2/pairing/redeem"
REDIRECT = "https://launcher.example/callback"


@pytest.fixture()
def clock(platform):
    """A clock at the start of a guessing window, movable by the test."""
    start = (int(dt.datetime.now(dt.UTC).timestamp()) // WINDOW_SECONDS + 1) * WINDOW_SECONDS
    platform.clock = Clock(dt.datetime.fromtimestamp(start, dt.UTC))
    return platform.clock


@pytest.fixture()
def api(client, make_app, checker):
    creds = make_app(permissions=["user:proxy"], redirect_uris=[REDIRECT], scopes=["post:write"])
    return SignedClient(client, creds, checker)


def _code(response):
    return response.json()["code"]


def test_wrong_auth_codes_lock_the_user_out_then_the_real_code_works(api, make_user, db, clock):
    user = make_user()
    with db.session() as session:
        real = oauth.create_auth_code(
            session, app_id=api.creds.app_id, user_id=user, redirect_uri=REDIRECT, now=clock()
        )
        session.commit()
    for i in range(LIMITS["user"]):
        wrong = api.post(TOKEN, json={"userId": user, "authCode": f"ZZZZ{i:02d}"})
        assert wrong.status_code == 400 and _code(wrong) == 200911
    locked = api.post(TOKEN, json={"userId": user, "authCode": real})
    assert locked.status_code == 429 and _code(locked) == 200915
    assert 1 <= int(locked.headers["Retry-After"]) <= WINDOW_SECONDS
    other = make_user()  # another user of the same application is not locked out
    assert _code(api.post(TOKEN, json={"userId": other, "authCode": "ZZZZZZ"})) == 200911
    clock.advance(seconds=WINDOW_SECONDS)
    works = api.post(TOKEN, json={"userId": user, "authCode": real})
    assert works.status_code == 200 and works.json()["data"]["userId"] == str(user)


def test_wrong_pairing_codes_lock_the_application_out(api, make_user, db, clock):
    with db.session() as session:
        real, _ = oauth.create_pairing_code(session, user_id=make_user(), now=clock())
        session.commit()
    for i in range(LIMITS["app"]):
        assert _code(api.post(PAIR, json={"pairingCode": f"WRONG{i:03d}"})) == 200913
    locked = api.post(PAIR, json={"pairingCode": real})
    assert locked.status_code == 429 and _code(locked) == 200915 and "Retry-After" in locked.headers
    clock.advance(seconds=WINDOW_SECONDS)
    assert api.post(PAIR, json={"pairingCode": real}).status_code == 200


def test_wrong_sso_tickets_lock_the_address_out(client, make_app, make_user, db, clock):
    creds = make_app(permissions=["user:proxy"])
    with db.session() as session:
        ticket = oauth.create_sso_ticket(session, app_id=creds.app_id, user_id=make_user(), now=clock())[
            "ticket"
        ]
        session.commit()
    for i in range(LIMITS["addr"]):
        assert client.get(f"/?sso_ticket=wrong{i}").status_code == 400
    locked = client.get(f"/?sso_ticket={ticket}", follow_redirects=False)
    assert locked.status_code == 429 and "200915" in locked.text
    clock.advance(seconds=WINDOW_SECONDS)
    assert client.get(f"/?sso_ticket={ticket}", follow_redirects=False).status_code == 302


def test_local_guard_counts_only_wrong_codes():
    guard = CodeGuard()
    for _ in range(LIMITS["user"]):
        with pytest.raises(ApiError), guard.guarded("oauth", [("user", "1:2")], 120.0):
            raise ApiError("AUTH_CODE_INVALID")
    with pytest.raises(ApiError) as locked, guard.guarded("oauth", [("user", "1:2")], 150.0):
        pass
    assert locked.value.code == 200915 and locked.value.headers == {"Retry-After": "30"}
    with pytest.raises(ApiError), guard.guarded("oauth", [("user", "1:2")], 180.0):
        raise ApiError("PARAMETER_INVALID")  # not a wrong code: not counted
    with guard.guarded("oauth", [("user", "1:2")], 180.0):
        pass
