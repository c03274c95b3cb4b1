"""Wrong-code counting, so one-time codes (auth codes, pairing codes, SSO tickets) cannot be guessed.

Wrong codes are counted in fixed windows (WINDOW_SECONDS, aligned to the platform clock) per
subject: the calling application, the application and user, or the client address. Once a
subject reaches its limit the operation answers 429 / 200915 with Retry-After until the window
ends, even for a right code (otherwise guessing would go on); the real code works again
afterwards, unspent. Counters live in the quota store's Redis when there is one, else in-process.
"""

from __future__ import annotations

import contextlib
import hashlib
import threading

import redis

from modhub.core.errors import ApiError
from modhub.core.redis_store import RedisStore

WINDOW_SECONDS = 60
LIMITS = {"app": 30, "user": 5, "addr": 10}  # wrong codes per window, by subject kind
WRONG = frozenset(
    {"AUTH_CODE_INVALID", "AUTH_CODE_USER_MISMATCH", "PAIRING_CODE_INVALID", "SSO_TICKET_INVALID"}
)


class CodeGuard:
    """Counts wrong codes per subject; `guarded` refuses a locked-out subject and counts failures."""

    def __init__(
        self,
        client: redis.Redis | None = None,
        prefix: str = "modhub:quota",
        limits: dict[str, int] | None = None,
    ):
        self.client = client
        self.limits = {**LIMITS, **(limits or {})}
        self.prefix = f"{prefix}:guess"
        self.lock = threading.Lock()
        self.local: dict[str, int] = {}

    @classmethod
    def for_redis(cls, store: RedisStore | None) -> CodeGuard:
        """Share the platform's Redis (under its key prefix) when it has one, else in process."""
        return cls(store.client, store.prefix) if store is not None else cls()

    @contextlib.contextmanager
    def guarded(self, operation: str, subjects: list[tuple[str, str]], now: float):
        """Refuse while a subject is locked out; count the wrong code the body raises."""
        window = int(now // WINDOW_SECONDS)
        keys = [(self._key(operation, kind, value, window), self.limits[kind]) for kind, value in subjects]
        counts = self._read([k for k, _ in keys])
        if any(count >= limit for count, (_, limit) in zip(counts, keys, strict=True)):
            wait = max(1, (window + 1) * WINDOW_SECONDS - int(now))
            raise ApiError("CODE_GUESSING_LOCKED", headers={"Retry-After": str(wait)})
        try:
            yield
        except ApiError as exc:
            if exc.entry.name in WRONG:
                self._increment([k for k, _ in keys])
            raise

    def _key(self, operation: str, kind: str, value: str, window: int) -> str:
        digest = hashlib.sha256(value.encode()).hexdigest()[:24]  # odd input never lands in a key
        return f"{self.prefix}:{operation}:{kind}:{digest}:{window}"

    def _read(self, keys: list[str]) -> list[int]:
        if self.client is None:
            with self.lock:
                return [self.local.get(k, 0) for k in keys]
        try:
            return [int(v or 0) for v in self.client.mget(keys)]
        except redis.RedisError as exc:
            raise ApiError("DEPENDENCY_UNAVAILABLE", "code checks are unavailable (Redis)") from exc

    def _increment(self, keys: list[str]) -> None:
        if self.client is None:
            with self.lock:
                if len(self.local) > 100_000:
                    self.local.clear()  # bounded memory; worst case a fresh window
                for k in keys:
                    self.local[k] = self.local.get(k, 0) + 1
            return
        try:
            with self.client.pipeline(transaction=False) as pipe:
                for k in keys:
                    pipe.incr(k)
                    pipe.expire(k, 2 * WINDOW_SECONDS)
                pipe.execute()
        except redis.RedisError as exc:
            raise ApiError("DEPENDENCY_UNAVAILABLE", "code checks are unavailable (Redis)") from exc
