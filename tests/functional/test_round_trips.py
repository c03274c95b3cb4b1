"""Per-request round trips: a read-only request sends no COMMIT, and a P or T request checks its
proxy user and token in the request's own session (one transaction, not two).

The test database wraps each test in a transaction, so a request's session shows up on the
connection as a SAVEPOINT (its transaction), a RELEASE (its commit) or a ROLLBACK TO (its close).
"""

from __future__ import annotations

import contextlib

import pytest
import redis
from sqlalchemy import event

from modhub.redis_pipe import ScriptClient

GAMES = "/openapi/v2/games"  # K, reads
PROFILE = "/openapi/v1/user/profile"  # P, reads
LINK = "/openapi/v2/user-binding/link"  # T, writes


@pytest.fixture()
def transactions(pg_engine):
    """Counts per request: sessions' transactions begun, committed and rolled back."""

    @contextlib.contextmanager
    def count():
        seen = {"begun": 0, "committed": 0, "rolled back": 0}

        def on(kind):
            def listener(*_args):
                seen[kind] += 1

            return listener

        listeners = [
            ("savepoint", on("begun")),
            ("release_savepoint", on("committed")),
            ("rollback_savepoint", on("rolled back")),
        ]
        for name, fn in listeners:
            event.listen(pg_engine, name, fn)
        try:
            yield seen
        finally:
            for name, fn in listeners:
                event.remove(pg_engine, name, fn)

    return count


def test_read_only_key_request_sends_no_commit(signed, transactions):
    signed.get(GAMES)  # warm: the application snapshot is loaded once
    with transactions() as seen:
        assert signed.get(GAMES).status_code == 200
    assert seen["committed"] == 0 and seen["begun"] == seen["rolled back"] >= 1


def test_proxy_user_request_uses_one_transaction_and_no_commit(signed, make_user, transactions):
    user = make_user(login_name="alice")
    with transactions() as seen:
        response = signed.get(PROFILE, headers={"X-Proxy-User-Id": str(user)})
    assert response.status_code == 200 and response.json()["data"]["userId"] == user
    # one for the application snapshot (no cache in tests), one for the proxy user and the handler
    assert seen == {"begun": 2, "committed": 0, "rolled back": 2}


def test_token_write_request_commits_once_in_the_gateway_session(
    signed, creds, make_user, make_token, transactions
):
    user = make_user()
    token = make_token(creds.app_id, user)
    with transactions() as seen:
        response = signed.post(LINK, json={"externalUserId": "e1"}, headers={"X-Proxy-Access-Token": token})
    assert response.status_code == 200, response.text
    # the app snapshot (rolled back); then token, user and the write in one session, committed
    # once (the third transaction is the link's own savepoint, released)
    assert seen == {"begun": 3, "committed": 2, "rolled back": 1}


def test_refused_proxy_user_closes_the_gateway_session(signed, transactions):
    with transactions() as seen:
        response = signed.get(PROFILE, headers={"X-Proxy-User-Id": "999999999"})
    assert response.json()["code"] == 200215
    assert seen["committed"] == 0 and seen["begun"] == seen["rolled back"] == 2


@pytest.fixture()
def redis_trips(monkeypatch):
    """Every round trip to Redis: the request's script (modhub.redis_pipe, from a thread or on the
    event loop) and any command sent through redis-py."""
    seen: list[str] = []
    run, run_async, execute = (
        ScriptClient._run_script,
        ScriptClient._run_script_async,
        redis.Redis.execute_command,
    )

    def counted(self, keys, args):
        seen.append("script")
        return run(self, keys, args)

    async def counted_async(self, keys, args):
        seen.append("script")
        return await run_async(self, keys, args)

    def command(self, *args, **options):
        seen.append(str(args[0]))
        return execute(self, *args, **options)

    monkeypatch.setattr(ScriptClient, "_run_script", counted)
    monkeypatch.setattr(ScriptClient, "_run_script_async", counted_async)
    monkeypatch.setattr(redis.Redis, "execute_command", command)
    return seen


def test_a_signed_request_is_one_redis_round_trip(signed, make_user, redis_trips):
    """Quota, replay guard and catalogue generation ride in one script (modhub.quota)."""
    user = make_user(login_name="bob")
    signed.get(GAMES)  # warm: the application snapshot is loaded once
    redis_trips.clear()
    assert signed.get(GAMES).status_code == 200
    assert signed.get(PROFILE, headers={"X-Proxy-User-Id": str(user)}).status_code == 200
    assert redis_trips == ["script", "script"]
