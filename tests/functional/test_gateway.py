"""Signature, application state, IP allow-list and proxy headers: every failure has its code."""

import time

import pytest

from modhub.app import create_app
from tests.support import SignedClient, now_ms, sign

GAMES = "/openapi/v2/games"  # K
PROFILE = "/openapi/v1/user/profile"  # P
LINK = "/openapi/v2/user-binding/link"  # T


def code_of(response):
    return response.json()["code"]


PASSED = "passed the gate"


def outcome(response):
    """The gateway's verdict: its error code, or PASSED when the handler answered."""
    code = code_of(response)
    return code if code // 100 in (2001, 2002) else PASSED


def test_signed_request_passes_the_gate(signed):
    assert outcome(signed.get(GAMES)) == PASSED


def test_missing_headers(client, creds):
    headers = creds.headers("GET", GAMES)
    for name in ("X-API-Key", "X-Timestamp", "X-Signature"):
        partial = {k: v for k, v in headers.items() if k != name}
        response = client.get(GAMES, headers=partial)
        assert response.status_code == 401 and code_of(response) == 200201


def test_headers_are_case_insensitive(client, creds):
    headers = {k.lower(): v for k, v in creds.headers("GET", GAMES).items()}
    assert outcome(client.get(GAMES, headers=headers)) == PASSED


@pytest.mark.parametrize("ts", ["1700000000", "17000000000000", "abcdefghijklm", "-700000000000"])
def test_timestamp_must_be_13_digit_milliseconds(client, creds, ts):
    response = client.get(GAMES, headers=creds.headers("GET", GAMES, timestamp=ts))
    assert response.status_code == 401 and code_of(response) == 200206


def test_unknown_key(client, creds):
    headers = {**creds.headers("GET", GAMES), "X-API-Key": "x" * 32}
    assert code_of(client.get(GAMES, headers=headers)) == 200202


@pytest.mark.parametrize("skew,code", [(-301, 200207), (301, 200207), (-290, PASSED), (290, PASSED)])
def test_timestamp_window_is_300_seconds(client, creds, skew, code):
    ts = str(int((time.time() + skew) * 1000))
    assert outcome(client.get(GAMES, headers=creds.headers("GET", GAMES, timestamp=ts))) == code


def test_bad_signature(client, creds):
    ts = now_ms()
    headers = {
        **creds.headers("GET", GAMES, timestamp=ts),
        "X-Signature": sign("wrong-secret", "GET", GAMES, ts),
    }
    response = client.get(GAMES, headers=headers)
    assert response.status_code == 401 and code_of(response) == 200208


def test_signature_of_another_path_or_method_is_refused(client, creds):
    ts = now_ms()
    for method, path in (("GET", "/openapi/v2/section/list"), ("POST", GAMES)):
        headers = {
            **creds.headers("GET", GAMES, timestamp=ts),
            "X-Signature": sign(creds.secret_key, method, path, ts),
        }
        assert code_of(client.get(GAMES, headers=headers)) == 200208


def test_query_string_is_not_signed(signed):
    assert outcome(signed.get("/openapi/v2/mods/search?keyword=abc")) == PASSED


def test_app_not_approved(client, make_app):
    pending = make_app(approve=False)
    response = SignedClient(client, pending).get(GAMES)
    assert response.status_code == 403 and code_of(response) == 200203


def test_app_disabled(client, make_app, db):
    from models.identity.applications import set_status
    from models.identity.tables import AppStatus

    creds = make_app()
    with db.session() as s:
        set_status(s, app_id=creds.app_id, status=AppStatus.DISABLED)
        s.commit()
    response = SignedClient(client, creds).get(GAMES)
    assert response.status_code == 403 and code_of(response) == 200204


@pytest.mark.parametrize(
    "pattern,peer,allowed",
    [
        ("127.0.0.1", "127.0.0.1", True),
        ("10.0.0.*", "10.0.0.9", True),
        ("10.0.0.*", "10.0.1.9", False),
        ("::1", "::1", True),
        ("::1", "127.0.0.1", False),
    ],
)
def test_ip_allow_list(app, make_app, pattern, peer, allowed):
    creds = make_app(ip_allow=[pattern])
    with app.test_client(client=(peer, 40000)) as c:
        response = SignedClient(c, creds).get(GAMES)
    assert outcome(response) == (PASSED if allowed else 200103)
    if not allowed:
        assert response.status_code == 403


def test_forwarded_for_believed_only_from_trusted_proxy(settings, db, quota, contract, make_app):
    creds = make_app(ip_allow=["10.0.0.*"])
    xff = {"X-Forwarded-For": "10.0.0.7"}
    trusting = create_app(
        settings.replace(trusted_proxies=("127.0.0.1",)), db=db, quota=quota, contract=contract
    )
    with trusting.test_client(client=("127.0.0.1", 1)) as c:
        assert outcome(SignedClient(c, creds).get(GAMES, headers=xff)) == PASSED
    with trusting.test_client(client=("192.0.2.1", 1)) as c:
        assert code_of(SignedClient(c, creds).get(GAMES, headers=xff)) == 200103


def test_proxy_operation_needs_user_proxy_permission(client, make_app, make_user):
    plain = make_app(permissions=[])
    response = SignedClient(client, plain).get(PROFILE, headers={"X-Proxy-User-Id": str(make_user())})
    assert response.status_code == 403 and code_of(response) == 200205


def test_proxy_user_required(signed):
    assert code_of(signed.get(PROFILE)) == 200209


@pytest.mark.parametrize("raw", ["abc", "-1", "99999999999"])
def test_proxy_user_invalid(signed, raw):
    assert code_of(signed.get(PROFILE, headers={"X-Proxy-User-Id": raw})) == 200215


def test_write_operation_needs_token(signed, make_user):
    response = signed.post(LINK, json={"externalUserId": "e1"}, headers={"X-Proxy-User-Id": str(make_user())})
    assert response.status_code == 401 and code_of(response) == 200210


def test_token_states(signed, creds, make_user, make_token, make_app):
    user = make_user()
    other_app = make_app(permissions=["user:proxy"])
    cases = {
        make_token(creds.app_id, user): PASSED,
        "unknown-token": 200211,
        make_token(other_app.app_id, user): 200211,
        make_token(creds.app_id, user, hours=-1): 200212,
        make_token(creds.app_id, user, revoked=True): 200213,
    }
    for token, code in cases.items():
        response = signed.post(LINK, json={"externalUserId": "e1"}, headers={"X-Proxy-Access-Token": token})
        assert outcome(response) == code


def test_token_user_overrides_proxy_user_header(signed, creds, make_user, make_token):
    alice, mallory = make_user(login_name="alice"), make_user(login_name="mallory")
    token = make_token(creds.app_id, alice)
    response = signed.get(PROFILE, headers={"X-Proxy-User-Id": str(mallory), "X-Proxy-Access-Token": token})
    assert response.json()["data"]["userId"] == alice


def test_anonymous_operation_needs_no_signature(client):
    assert client.get("/openapi/v2/meta/openapi.json").status_code == 200
