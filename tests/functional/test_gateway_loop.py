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
        forged = signed.get(GAMES, headers={"X-Signature": "AAAA" + creds.headers("GET", GAMES)
                                            ["X-Signature"][4:]})
        assert forged.status_code == 401 and forged.json()["code"] == 200208
        profile = signed.get(PROFILE, headers={"X-Proxy-User-Id": str(user_id)})
        assert profile.status_code == 200 and profile.json()["data"]["userId"] == user_id
        refused = signed.get(GAMES)
        assert refused.status_code == 429 and refused.json()["code"] == 200101
        assert forged.headers["X-Request-Id"] == forged.json()["traceId"]
