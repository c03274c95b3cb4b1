"""RedisQuota's own connections: the script reloaded, a stale connection reopened once, one
connection per concurrent call, a timeout answered 200503 after one wait
(modhub.quota.RedisQuota._run_script)."""

import threading
import time

import pytest

from modhub.core.errors import ApiError
from tests.support import stalled_redis_quota

NOON = 1_763_683_200.0 + 12 * 3600 + 30


def test_a_forgotten_script_is_loaded_again(quota):
    real = quota.script.sha
    quota.script.sha = "0" * 40  # as after a Redis restart or SCRIPT FLUSH: unknown to Redis
    assert quota.hit(3, 10, 10, now=NOON).verdict == 0
    assert quota.script.sha == real
    assert quota.hit(3, 10, 10, now=NOON).minute_count == 2


def test_a_connection_closed_by_redis_is_reopened_once(quota, redis_client):
    assert quota.hit(4, 10, 10, now=NOON).verdict == 0
    conn = quota._idle[-1]
    conn.send_command("CLIENT", "ID")
    redis_client.client_kill_filter(_id=conn.read_response())
    verdict = quota.hit(4, 10, 10, now=NOON)  # the killed socket fails, a new one counts
    assert verdict.verdict == 0 and verdict.minute_count == 2


def test_concurrent_calls_use_their_own_connections_then_reuse_them(quota):
    start = threading.Barrier(4)

    def count():
        start.wait()
        for _ in range(20):
            quota.hit(5, 1000, 1000, now=NOON)

    threads = [threading.Thread(target=count) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    opened = len(quota._idle)
    assert 1 <= opened <= 4
    assert quota.hit(5, 1000, 1000, now=NOON).minute_count == 81
    assert len(quota._idle) == opened  # a sequential call takes an idle one, opens none


def test_a_stalled_redis_is_a_503_after_one_timeout():
    with stalled_redis_quota() as q:
        started = time.monotonic()
        with pytest.raises(ApiError) as err:
            q.hit(1, 10, 10)
        assert err.value.code == 200503
        assert time.monotonic() - started < 0.55  # one timeout, not retried
