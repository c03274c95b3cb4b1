"""Failed log-in counting, so passwords cannot be guessed at speed through the site's log-in form.

Failures are counted per login name and per client address in a fixed window. The counters live
in the quota store's Redis when there is one (shared by every server process), else in-process.
"""

from __future__ import annotations

import hashlib
import threading
import time

import redis

from modhub.core.errors import ApiError
from modhub.core.redis_store import RedisStore

WINDOW_SECONDS = 15 * 60
PER_LOGIN = 5  # failures of one login name per window
PER_ADDRESS = 50  # failures from one client address per window (password spraying)


def _keys(login: str, address: str) -> list[tuple[str, int]]:
    # Hashed so that odd login text never ends up verbatim in a key.
    name = hashlib.sha256(login.strip().lower().encode()).hexdigest()[:32]
    return [(f"login:{name}", PER_LOGIN), (f"addr:{address}", PER_ADDRESS)]


class LoginThrottle:
    """Counts failed log-ins; `blocked` is true once a login name or an address has too many."""

    def __init__(self, client: redis.Redis | None = None, prefix: str = "modhub:site"):
        self.client = client
        self.prefix = prefix
        self.lock = threading.Lock()
        self.local: dict[str, tuple[float, int]] = {}

    @classmethod
    def for_redis(cls, store: RedisStore | None) -> LoginThrottle:
        """Share the platform's Redis (under its key prefix) when it has one, else in process."""
        return cls(store.client, f"{store.prefix}:site") if store is not None else cls()

    def blocked(self, login: str, address: str) -> bool:
        """True when this login name or address has used up its failures for the window."""
        return any(self._count(key) >= limit for key, limit in _keys(login, address))

    def failed(self, login: str, address: str) -> None:
        """Count one failed log-in."""
        for key, _ in _keys(login, address):
            self._increment(key)

    def _count(self, key: str) -> int:
        if self.client is None:
            with self.lock:
                expires, count = self.local.get(key, (0.0, 0))
                return count if expires > time.monotonic() else 0
        try:
            return int(self.client.get(f"{self.prefix}:{key}") or 0)
        except redis.RedisError as exc:
            raise ApiError("DEPENDENCY_UNAVAILABLE", "log-in is unavailable (Redis is down)") from exc

    def _increment(self, key: str) -> None:
        if self.client is None:
            with self.lock:
                if len(self.local) > 100_000:
                    self.local.clear()  # bounded memory; worst case an attacker gets a fresh window
                expires, count = self.local.get(key, (0.0, 0))
                if expires <= time.monotonic():
                    expires, count = time.monotonic() + WINDOW_SECONDS, 0
                self.local[key] = (expires, count + 1)
            return
        name = f"{self.prefix}:{key}"
        try:
            with self.client.pipeline(transaction=True) as pipe:
                pipe.set(name, 0, ex=WINDOW_SECONDS, nx=True)
                pipe.incr(name)
                pipe.execute()
        except redis.RedisError as exc:
            raise ApiError("DEPENDENCY_UNAVAILABLE", "log-in is unavailable (Redis is down)") from exc
