"""The gateway's event-loop path: key-only operations of an application whose snapshot is cached
are checked without a worker thread, with the same outcomes as the threaded path."""

import pytest

from modhub import gateway
from modhub.app import create_app
from modhub.gateway import Access
from tests.support import SignedClient

GAMES = "/openapi/v2/games"  # key-only (K)
PROFILE = "/openapi/v1/user/profile"  # proxy user (P)


@pytest.fixture()
def cached_app(settings, db, quota, contract):
    """The application with the snapshot cache on, as in production."""
    return create_app(settings.replace(app_cache_seconds=60), db=db, quota=quota, contract=contract)


@pytest.fixture()
def hand_offs(monkeypatch):
    """Counts the gateway checks handed to a worker thread."""
    calls = []
    real = gateway.run_in_threadpool

    async def counting(func, *args):
        if args:  # a check (a refused request's session is closed in a thread too)
            calls.append(args[0])
        return await real(func, *args)

    monkeypatch.setattr(gateway, "run_in_threadpool", counting)
    return calls


def test_only_cached_key_operations_run_on_the_loop(cached_app, make_app, make_user, hand_offs):
    creds = make_app(permissions=["user:proxy"])
    user_id = make_user(login_name="loop-threads")
    with cached_app.test_client() as c:
        signed = SignedClient(c, creds)
        for _ in range(3):
            assert signed.get(GAMES).status_code == 200
        assert hand_offs == [Access.KEY]  # the first loads the snapshot; the others stay on the loop
        assert signed.get(PROFILE, headers={"X-Proxy-User-Id": str(user_id)}).status_code == 200
        assert hand_offs == [Access.KEY, Access.PROXY_USER]  # the user is read in a thread


def test_loop_path_checks_signature_quota_and_proxy_alike(cached_app, make_app, make_user):
    creds = make_app(permissions=["user:proxy"], per_minute=3)
    user_id = make_user(login_name="loop")
    with cached_app.test_client() as c:
        signed = SignedClient(c, creds)
        first = signed.get(GAMES)  # loads the snapshot in a thread
        second = signed.get(GAMES)  # checked on the loop
        assert (first.status_code, second.status_code) == (200, 200)
        assert second.headers["X-RateLimit-Remaining"] == "1"
        forged = signed.get(
            GAMES, headers={"X-Signature": "AAAA" + creds.headers("GET", GAMES)["X-Signature"][4:]}
        )
        assert forged.status_code == 401 and forged.json()["code"] == 200208
        profile = signed.get(PROFILE, headers={"X-Proxy-User-Id": str(user_id)})
        assert profile.status_code == 200 and profile.json()["data"]["userId"] == user_id
        refused = signed.get(GAMES)
        assert refused.status_code == 429 and refused.json()["code"] == 200101
        assert forged.headers["X-Request-Id"] == forged.json()["traceId"]


def test_cached_proxy_user_stays_on_the_loop_and_deletion_is_seen_after_the_snapshot(
    cached_app, make_app, make_user, hand_offs, db
):
    from models.identity.tables import User

    creds = make_app(permissions=["user:proxy"])
    user_id = make_user(login_name="loop-user")
    headers = {"X-Proxy-User-Id": str(user_id)}
    with cached_app.test_client() as c:
        signed = SignedClient(c, creds)
        assert signed.get(PROFILE, headers=headers).status_code == 200  # app and user read
        assert signed.get(PROFILE, headers=headers).json()["data"]["userId"] == user_id
        assert hand_offs == [Access.PROXY_USER]  # the second: app and user cached, on the loop
        unknown = signed.get(PROFILE, headers={"X-Proxy-User-Id": str(user_id + 10_000)})
        assert unknown.status_code == 401 and unknown.json()["code"] == 200215  # never cached
        with db.session() as s:
            s.get(User, user_id).is_delete = True
            s.commit()
        gatekeeper_users = cached_app.app.extensions["modhub"].gatekeeper.users
        assert gatekeeper_users.live(user_id)
        gatekeeper_users.snapshots.cache[user_id] = (0.0, True)  # the snapshot time has passed
        gone = signed.get(PROFILE, headers=headers)
        assert gone.status_code == 401 and gone.json()["code"] == 200215
        assert not gatekeeper_users.live(user_id)
