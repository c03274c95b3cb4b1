"""Quota windows and counting, in process and in Redis."""

import pytest

from modhub.core.errors import ApiError
from modhub.quota import LocalQuota, Windows

NOON = 1_763_683_200.0 + 12 * 3600 + 30  # 2025-11-21 12:00:30 UTC


def test_windows_align_to_minute_and_utc_day():
    w = Windows.at(NOON)
    assert w.minute_reset % 60 == 0 and w.minute_reset - NOON == 30
    assert w.day_reset % 86400 == 0 and w.day_reset - NOON == 12 * 3600 - 30


@pytest.mark.parametrize("make", [LocalQuota, "redis"])
def test_minute_limit_then_next_minute(make, quota):
    q = quota if make == "redis" else make()
    verdicts = [q.hit(7, 3, 100, now=NOON) for _ in range(4)]
    assert [v.verdict for v in verdicts] == [0, 0, 0, 1]
    assert verdicts[2].headers()[1] == (b"x-ratelimit-remaining", b"0")
    with pytest.raises(ApiError) as err:
        verdicts[3].raise_if_refused()
    assert err.value.code == 200101 and err.value.headers["Retry-After"] == "30"
    assert q.hit(7, 3, 100, now=NOON + 60).verdict == 0


@pytest.mark.parametrize("make", [LocalQuota, "redis"])
def test_daily_limit_wins_and_refusals_are_not_counted(make, quota):
    q = quota if make == "redis" else make()
    assert [q.hit(8, 100, 2, now=NOON + i).verdict for i in range(3)] == [0, 0, 2]
    refused = q.hit(8, 100, 2, now=NOON + 5)
    assert refused.day_count == 2
    with pytest.raises(ApiError) as err:
        refused.raise_if_refused()
    assert err.value.code == 200102 and int(err.value.headers["Retry-After"]) == 12 * 3600 - 35


def test_redis_down_is_a_503(redis_client):
    import redis
    from redis.backoff import NoBackoff
    from redis.retry import Retry

    from modhub.quota import RedisQuota

    q = RedisQuota(
        redis.Redis(host="127.0.0.1", port=1, socket_connect_timeout=0.2, retry=Retry(NoBackoff(), 0))
    )
    with pytest.raises(ApiError) as err:
        q.hit(1, 10, 10)
    assert err.value.code == 200503
