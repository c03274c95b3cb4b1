"""The platform's Redis, as one typed handle: the client and the key prefix its users share.

Built once by the app factory from MODHUB_REDIS_URL (None without Redis: the embedded default)
and handed to each user explicitly: the quota's round trip (modhub.quota), the catalogue
generation (models.record_cache), the download counter (models.downloads.counting), the wrong-code
guard (modhub.guessing) and the site's log-in throttle. Each keeps its keys under `prefix`.
"""

from __future__ import annotations

from dataclasses import dataclass

import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

DEFAULT_PREFIX = "modhub:quota"


@dataclass(frozen=True, eq=False)
class RedisStore:
    """A Redis client and the key prefix of this platform (identity-hashed: one per platform)."""

    client: redis.Redis
    prefix: str = DEFAULT_PREFIX

    @classmethod
    def from_url(cls, url: str, prefix: str = DEFAULT_PREFIX, *, timeout: float = 1.0) -> RedisStore:
        """A store over bounded_client(url, timeout)."""
        return cls(bounded_client(url, timeout), prefix)


def bounded_client(url: str, timeout: float) -> redis.Redis:
    """A client whose every call ends within `timeout` seconds (MODHUB_REDIS_TIMEOUT_SECONDS): a
    stalled Redis fails a request with 200503 then instead of holding it. One attempt, no retry
    and no back-off (redis.Redis() alone retries 10 times with jittered sleeps). The quota store,
    the webhook dispatcher (after a commit, on the request's thread) and the worker's counters
    use it; only the worker's blocking dequeue waits longer, on a connection of its own."""
    return redis.Redis.from_url(
        url, socket_timeout=timeout, socket_connect_timeout=timeout, retry=Retry(NoBackoff(), 0)
    )
