"""Authorization-code exchange, revocation, pairing codes and SSO tickets over HTTP."""

from __future__ import annotations

import datetime as dt
import re

import pytest

from models.identity import oauth
from models.identity.service import token_hash
from models.identity.tables import AuthCode, PairingCode, ProxyToken, SsoTicket
from modhub.core.errors import ApiError
from tests.helpers.identity import code_of
from tests.support import SignedClient

TOKEN = "/openapi/v2/oauth/token"
REVOKE = "/openapi/v2/oauth/revoke"
PAIR = "/openapi/v2/pairing/redeem"
SSO = "/openapi/v2/sso/exchange"
PROFILE = "/openapi/v1/user/profile"
REDIRECT = "https://launcher.example/callback"


@pytest.fixture()
def oauth_app(make_app):
    """An approved proxy application with a redirect URI and two approved scopes."""
    return make_app(
        permissions=["user:proxy"], redirect_uris=[REDIRECT], scopes=["comment:write", "post:write"]
    )


@pytest.fixture()
def api(client, oauth_app, checker):
    """A signed client of oauth_app."""
    return SignedClient(client, oauth_app, checker)


def test_auth_code_is_exchanged_once_for_a_24_hour_token(
    api, oauth_app, make_user, make_auth_code, clock, db
):
    user = make_user()
    code = make_auth_code(oauth_app.app_id, user, REDIRECT, clock())
    assert re.fullmatch(r"[A-Z0-9]{6}", code)
    response = api.post(TOKEN, json={"userId": user, "authCode": code})
    assert response.status_code == 200, response.text
    data = response.json()["data"]
    assert data["userId"] == str(user) and data["tokenType"] == "Bearer"
    assert data["expiresInSeconds"] == 86400 and data["scopes"] == ["comment:write", "post:write"]
    with db.session() as s:
        row = s.query(ProxyToken).filter_by(token_hash=token_hash(data["accessToken"])).one()
        assert row.source == "OAUTH" and row.expires_at - row.issued_at == dt.timedelta(hours=24)
    profile = api.get(PROFILE, headers={"X-Proxy-Access-Token": data["accessToken"]})
    assert profile.json()["data"]["userId"] == user
    again = api.post(TOKEN, json={"userId": user, "authCode": code})
    assert again.status_code == 400 and code_of(again) == 200911


@pytest.mark.parametrize("as_text", [True, False])
def test_user_id_may_be_a_number_or_a_numeric_string(
    api, oauth_app, make_user, make_auth_code, clock, as_text
):
    user = make_user()
    code = make_auth_code(oauth_app.app_id, user, REDIRECT, clock())
    response = api.post(TOKEN, json={"userId": str(user) if as_text else user, "authCode": code})
    assert response.status_code == 200 and response.json()["data"]["userId"] == str(user)


def test_the_code_alone_is_exchanged_for_its_users_token(api, oauth_app, make_user, make_auth_code, clock):
    """userId is optional: the code names its user (extension); a userId sent must still match."""
    user = make_user()
    code = make_auth_code(oauth_app.app_id, user, REDIRECT, clock())
    response = api.post(TOKEN, json={"authCode": code})
    assert response.status_code == 200, response.text
    assert response.json()["data"]["userId"] == str(user)
    assert code_of(api.post(TOKEN, json={"authCode": code})) == 200911  # still once


def test_the_code_alone_that_is_unknown_is_refused(api):
    response = api.post(TOKEN, json={"authCode": "ZZZZZZ"})
    assert response.status_code == 400 and code_of(response) == 200911


@pytest.mark.parametrize("bad", ["abc", "0", "-1", "1.5", ""])
def test_user_id_text_must_be_decimal_digits(api, oauth_app, make_user, make_auth_code, clock, bad):
    code = make_auth_code(oauth_app.app_id, make_user(), REDIRECT, clock())
    response = api.post(TOKEN, json={"userId": bad, "authCode": code})
    assert response.status_code == 400 and code_of(response) == 200301


def test_requested_scopes_narrow_the_token(api, oauth_app, make_user, make_auth_code, clock):
    user = make_user()
    code = make_auth_code(oauth_app.app_id, user, REDIRECT, clock())
    data = api.post(TOKEN, json={"userId": user, "authCode": code, "requestedScopes": ["post:write"]}).json()[
        "data"
    ]
    assert data["scopes"] == ["post:write"]


def test_scopes_outside_the_approved_set_are_denied(api, oauth_app, make_user, make_auth_code, clock):
    user = make_user()
    code = make_auth_code(oauth_app.app_id, user, REDIRECT, clock())
    response = api.post(TOKEN, json={"userId": user, "authCode": code, "requestedScopes": ["admin"]})
    assert response.status_code == 403 and code_of(response) == 200214
    # The refused exchange did not spend the code.
    assert code_of(api.post(TOKEN, json={"userId": user, "authCode": code})) == 0


def test_auth_code_expires_after_5_minutes(api, oauth_app, make_user, make_auth_code, clock):
    user = make_user()
    code = make_auth_code(oauth_app.app_id, user, REDIRECT, clock())
    clock.advance(minutes=5)
    assert code_of(api.post(TOKEN, json={"userId": user, "authCode": code})) == 200911


def test_auth_code_of_another_user(api, oauth_app, make_user, make_auth_code, clock):
    alice, bob = make_user(), make_user()
    code = make_auth_code(oauth_app.app_id, alice, REDIRECT, clock())
    response = api.post(TOKEN, json={"userId": bob, "authCode": code})
    assert response.status_code == 400 and code_of(response) == 200912


def test_auth_code_of_another_application(
    client, checker, oauth_app, make_app, make_user, make_auth_code, clock
):
    other = make_app(permissions=["user:proxy"])
    user = make_user()
    code = make_auth_code(oauth_app.app_id, user, REDIRECT, clock())
    response = SignedClient(client, other, checker).post(TOKEN, json={"userId": user, "authCode": code})
    assert code_of(response) == 200911


def test_unknown_and_malformed_codes(api, make_user):
    user = make_user()
    assert code_of(api.post(TOKEN, json={"userId": user, "authCode": "ZZZZZZ"})) == 200911
    response = api.post(TOKEN, json={"userId": user, "authCode": "abc"})
    assert response.status_code == 400 and code_of(response) == 200301


def test_token_exchange_needs_the_proxy_permission(client, checker, make_app, make_user):
    plain = make_app(permissions=[])
    response = SignedClient(client, plain, checker).post(
        TOKEN, json={"userId": make_user(), "authCode": "ABC123"}
    )
    assert response.status_code == 403 and code_of(response) == 200205


def test_revoke_ends_the_token(api, oauth_app, make_user, make_token):
    user = make_user()
    token = make_token(oauth_app.app_id, user)
    response = api.post(REVOKE, headers={"X-Proxy-Access-Token": token})
    assert response.status_code == 200 and response.json()["data"] is True
    after = api.get(PROFILE, headers={"X-Proxy-Access-Token": token})
    assert after.status_code == 401 and code_of(after) == 200213
    assert code_of(api.post(REVOKE, headers={"X-Proxy-Access-Token": token})) == 200213


def test_revoke_needs_a_token(api, make_user):
    response = api.post(REVOKE, headers={"X-Proxy-User-Id": str(make_user())})
    assert response.status_code == 401 and code_of(response) == 200210


def test_token_expires_after_24_hours(api, oauth_app, make_user, make_auth_code, clock):
    user = make_user()
    code = make_auth_code(oauth_app.app_id, user, REDIRECT, clock())
    token = api.post(TOKEN, json={"userId": user, "authCode": code}).json()["data"]["accessToken"]
    clock.advance(hours=23, minutes=59)
    assert code_of(api.get(PROFILE, headers={"X-Proxy-Access-Token": token})) == 0
    clock.advance(minutes=1)
    assert code_of(api.get(PROFILE, headers={"X-Proxy-Access-Token": token})) == 200212


def _pairing_code(db, user_id, now):
    with db.session() as session:
        code, _ = oauth.create_pairing_code(session, user_id=user_id, now=now)
        session.commit()
    return code


def test_pairing_code_is_redeemed_once(api, make_user, clock, db):
    user = make_user()
    code = _pairing_code(db, user, clock())
    assert re.fullmatch(r"[A-Z0-9]{8}", code)
    response = api.post(PAIR, json={"pairingCode": code})
    assert response.status_code == 200, response.text
    data = response.json()["data"]
    assert data["userId"] == str(user) and data["expiresInSeconds"] == 86400
    profile = api.get(PROFILE, headers={"X-Proxy-Access-Token": data["accessToken"]})
    assert profile.json()["data"]["userId"] == user
    again = api.post(PAIR, json={"pairingCode": code})
    assert again.status_code == 400 and code_of(again) == 200913


def test_pairing_code_expires_after_one_day(api, make_user, clock, db):
    code = _pairing_code(db, make_user(), clock())
    clock.advance(days=1)
    assert code_of(api.post(PAIR, json={"pairingCode": code})) == 200913


def test_pairing_code_unknown_or_malformed(api):
    assert code_of(api.post(PAIR, json={"pairingCode": "ABCDEFGH"})) == 200913
    assert code_of(api.post(PAIR, json={"pairingCode": "abc"})) == 200301


def test_pairing_needs_the_proxy_permission(client, checker, make_app):
    plain = make_app(permissions=[])
    response = SignedClient(client, plain, checker).post(PAIR, json={"pairingCode": "ABCDEFGH"})
    assert code_of(response) == 200205


def test_sso_exchange_gives_a_one_time_ticket(api, oauth_app, make_user, make_token, clock, db):
    user = make_user()
    response = api.post(SSO, headers={"X-Proxy-Access-Token": make_token(oauth_app.app_id, user)})
    assert response.status_code == 200, response.text
    data = response.json()["data"]
    assert data["expiresInSeconds"] == 300 and len(data["ticket"]) >= 43
    with db.session() as session:
        assert oauth.consume_sso_ticket(session, ticket=data["ticket"], now=clock()).id == user
        session.commit()
    with db.session() as session, pytest.raises(ApiError, match="SSO ticket"):
        oauth.consume_sso_ticket(session, ticket=data["ticket"], now=clock())


def test_sso_ticket_expires_after_300_seconds(api, oauth_app, make_user, make_token, clock, db):
    token = make_token(oauth_app.app_id, make_user())
    ticket = api.post(SSO, headers={"X-Proxy-Access-Token": token}).json()["data"]["ticket"]
    with db.session() as session, pytest.raises(ApiError, match="SSO ticket"):
        oauth.consume_sso_ticket(session, ticket=ticket, now=clock() + dt.timedelta(seconds=300))


def test_sso_exchange_needs_a_token(api, make_user):
    response = api.post(SSO, headers={"X-Proxy-User-Id": str(make_user())})
    assert code_of(response) == 200210


def test_codes_and_tickets_are_stored_only_as_hashes(
    api, oauth_app, make_user, make_token, make_auth_code, clock, db
):
    user = make_user()
    code = make_auth_code(oauth_app.app_id, user, REDIRECT, clock())
    pairing = _pairing_code(db, user, clock())
    ticket = api.post(SSO, headers={"X-Proxy-Access-Token": make_token(oauth_app.app_id, user)}).json()[
        "data"
    ]["ticket"]
    with db.session() as session:
        stored = {r.code_hash for r in session.query(AuthCode)}
        stored |= {r.code_hash for r in session.query(PairingCode)}
        stored |= {r.ticket_hash for r in session.query(SsoTicket)}
    assert {token_hash(code), token_hash(pairing), token_hash(ticket)} <= stored
    assert not {code, pairing, ticket} & stored


def test_scopes_added_after_consent_are_not_granted(api, oauth_app, make_user, make_auth_code, clock, db):
    from models.identity.tables import Application

    user = make_user()
    code = make_auth_code(oauth_app.app_id, user, REDIRECT, clock())
    with db.session() as session:
        session.get(Application, oauth_app.app_id).scopes = ["comment:write", "post:write", "wallet:write"]
        session.commit()
    data = api.post(TOKEN, json={"userId": user, "authCode": code}).json()["data"]
    assert data["scopes"] == ["comment:write", "post:write"]


def test_purge_deletes_only_codes_expired_past_the_grace(creds, make_user, clock, db):
    user = make_user()
    with db.session() as session:
        oauth.create_pairing_code(session, user_id=user, now=clock() - dt.timedelta(days=3))
        fresh, _ = oauth.create_pairing_code(session, user_id=user, now=clock())
        oauth.create_sso_ticket(
            session, app_id=creds.app_id, user_id=user, now=clock() - dt.timedelta(days=2)
        )
        kept = oauth.create_sso_ticket(
            session, app_id=creds.app_id, user_id=user, now=clock() - dt.timedelta(hours=2)
        )["ticket"]
        removed = oauth.purge_expired(session, now=clock())
        codes = {r.code_hash for r in session.query(PairingCode).filter_by(user_id=user)}
        tickets = {r.ticket_hash for r in session.query(SsoTicket).filter_by(user_id=user)}
    assert removed["pairing_code"] == 1 and codes == {token_hash(fresh)}
    assert removed["sso_ticket"] == 1 and tickets == {token_hash(kept)}


def test_identity_purge_command(tmp_path, monkeypatch):
    import json

    from click.testing import CliRunner

    from modhub.cli import main

    for name in ("DATABASE_URL", "REDIS_URL", "ENCRYPTION_KEY", "PRODUCTION"):
        monkeypatch.delenv(f"MODHUB_{name}", raising=False)
    monkeypatch.setenv("MODHUB_DATA_DIR", str(tmp_path / "data"))
    assert CliRunner().invoke(main, ["db", "upgrade"]).exit_code == 0
    result = CliRunner().invoke(main, ["identity", "purge"], catch_exceptions=False)
    assert result.exit_code == 0
    assert json.loads(result.stdout) == {
        "oauth_auth_code": 0,
        "pairing_code": 0,
        "sso_ticket": 0,
        "idempotency_key": 0,
    }
