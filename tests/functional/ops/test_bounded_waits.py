"""The waits and the pool come from the settings (issue 30, item 6): PostgreSQL connect and
statement time-outs, application_name, pool size and overflow; Redis socket time-outs; the S3
client's time-outs and retries."""

import time

import pytest
import redis
from sqlalchemy import text

from modhub.app import build_platform
from modhub.core.redis_store import RedisStore
from modhub.core.storage import from_settings
from modhub.db import Database, connect_args
from tests.support import dead_redis_url
from workers.dispatch import RQDispatcher


def test_postgresql_session_settings_and_pool_from_settings(settings, pg_engine):  # the database exists
    chosen = settings.replace(
        db_application_name="modhub-ops-test",
        db_statement_timeout_seconds=2.5,
        db_connect_timeout_seconds=3,
        db_pool_size=3,
        db_max_overflow=1,
        db_pool_timeout_seconds=0.5,
        db_pre_ping=True,
    )
    db = Database.from_settings(chosen)
    try:
        with db.engine.connect() as conn:
            assert conn.execute(text("SHOW application_name")).scalar() == "modhub-ops-test"
            assert conn.execute(text("SHOW statement_timeout")).scalar() == "2500ms"
            assert conn.execute(text("SHOW jit")).scalar() == "off"  # an estimate past its cost: 57 ms
        pool = db.engine.pool
        assert pool.size() == 3 and pool._max_overflow == 1 and pool._timeout == 0.5 and pool._pre_ping
        assert connect_args(chosen)["connect_timeout"] == 3
    finally:
        db.engine.dispose()


def test_redis_and_s3_waits_from_settings(settings, db):
    chosen = settings.replace(
        redis_timeout_seconds=0.7,
        storage_url="s3://bucket",
        s3_endpoint_url="http://127.0.0.1:18499",
        s3_connect_timeout_seconds=1.5,
        s3_read_timeout_seconds=4,
        s3_max_attempts=2,
    )
    platform = build_platform(chosen, db=db)
    kwargs = platform.quota.client.connection_pool.connection_kwargs
    assert kwargs["socket_timeout"] == 0.7 and kwargs["socket_connect_timeout"] == 0.7
    # The webhook dispatcher's calls run after a commit, on the request's thread: the same bound.
    dispatcher = RQDispatcher.from_settings(chosen.replace(redis_url="redis://127.0.0.1:6379/0"))
    kwargs = dispatcher.redis.connection_pool.connection_kwargs
    assert kwargs["socket_timeout"] == 0.7 and kwargs["socket_connect_timeout"] == 0.7
    config = from_settings(chosen).client.meta.config
    assert config.connect_timeout == 1.5 and config.read_timeout == 4
    assert config.retries == {"mode": "standard", "total_max_attempts": 2}


@pytest.mark.parametrize("answers", ["refuses", "never answers"])
def test_a_redis_that_does_not_answer_fails_a_call_within_one_timeout(settings, answers):
    with dead_redis_url(answers) as url:
        calls = {
            "quota store": RedisStore.from_url(url, timeout=0.3).client.ping,
            "webhook hand-over": RQDispatcher.from_settings(
                settings.replace(redis_url=url, redis_timeout_seconds=0.3)
            ).kick_relay,
        }
        for name, call in calls.items():
            started = time.monotonic()
            with pytest.raises(redis.RedisError):
                call()
            elapsed = time.monotonic() - started
            assert elapsed < 0.6, (name, elapsed)  # one attempt: no retry, no back-off sleep
