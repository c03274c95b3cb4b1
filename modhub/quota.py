"""Per-application request quotas: fixed windows aligned to the minute and the UTC day.

`RedisQuota` keeps the counters in Redis and checks both windows in one atomic round trip (a
Lua script, run by modhub.redis_pipe), so every process and host shares them: `hit` from a worker
thread, `hit_async` on an event loop (without blocking it). The same trip takes a signed write's
nonce (modhub.replay) and reads the catalogue generation (models.record_cache): one round trip
per request, whatever it needs. `LocalQuota` is the embedded fallback and counts per process.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass

import redis

from models.record_cache import GENERATION_KEY
from modhub.core.errors import ApiError
from modhub.core.redis_store import RedisStore
from modhub.redis_pipe import ScriptClient
from modhub.replay import LocalNonces

# KEYS: minute counter, day counter, the catalogue generation, optionally the seen-signature key
# of a signed write. ARGV: minute limit, day limit, minute ttl, day ttl, seen-signature ttl.
# Returns {verdict, minute count, day count, catalogue generation}; verdict 0 = counted, 1 =
# minute full, 2 = day full, 3 = this signed write was already accepted (a replay). A refused
# request is not counted, so a burst over the minute limit does not eat the day. The generation
# rides along so that cached catalogue records are checked without a round trip of their own.
_LUA = """
local m = tonumber(redis.call('GET', KEYS[1]) or '0')
local d = tonumber(redis.call('GET', KEYS[2]) or '0')
local g = tonumber(redis.call('GET', KEYS[3]) or '0')
if d >= tonumber(ARGV[2]) then return {2, m, d, g} end
if m >= tonumber(ARGV[1]) then return {1, m, d, g} end
if KEYS[4] and not redis.call('SET', KEYS[4], '1', 'NX', 'EX', ARGV[5]) then return {3, m, d, g} end
m = redis.call('INCR', KEYS[1])
if m == 1 then redis.call('EXPIRE', KEYS[1], ARGV[3]) end
d = redis.call('INCR', KEYS[2])
if d == 1 then redis.call('EXPIRE', KEYS[2], ARGV[4]) end
return {0, m, d, g}
"""


@dataclass(frozen=True)
class Windows:
    """The current minute and UTC-day windows."""

    minute: int
    day: int
    minute_reset: int
    day_reset: int

    @classmethod
    def at(cls, now: float) -> Windows:
        """The windows containing the Unix time `now`."""
        minute, day = int(now // 60), int(now // 86400)
        return cls(minute, day, (minute + 1) * 60, (day + 1) * 86400)


@dataclass(frozen=True)
class Verdict:
    """The outcome of counting one request, with what the rate-limit headers need."""

    verdict: int
    per_minute: int
    per_day: int
    minute_count: int
    day_count: int
    windows: Windows
    now: float
    generation: int | None = None  # the catalogue generation in Redis (models.record_cache)

    def headers(self) -> list[tuple[bytes, bytes]]:
        """The X-RateLimit-* headers of this response, as the ASGI message carries them."""
        return [
            (b"x-ratelimit-limit", b"%d" % self.per_minute),
            (b"x-ratelimit-remaining", b"%d" % max(0, self.per_minute - self.minute_count)),
            (b"x-ratelimit-reset", b"%d" % self.windows.minute_reset),
            (b"x-ratelimit-daily-limit", b"%d" % self.per_day),
            (b"x-ratelimit-daily-remaining", b"%d" % max(0, self.per_day - self.day_count)),
        ]

    def raise_if_refused(self) -> None:
        """Raise 200101 / 200102 with Retry-After when the request is over quota."""
        if self.verdict == 0:
            return
        if self.verdict == 3:
            raise ApiError("REQUEST_REPLAYED")
        if self.verdict == 2:
            wait = self.windows.day_reset - int(self.now)
            raise ApiError("DAILY_LIMIT_EXCEEDED", headers={"Retry-After": str(max(1, wait))})
        wait = self.windows.minute_reset - int(self.now)
        raise ApiError("RATE_LIMIT_EXCEEDED", headers={"Retry-After": str(max(1, wait))})


class RedisQuota(ScriptClient):
    """Quota counters in Redis, shared by every server process and host.

    `hit` runs on every signed request: one EVALSHA of the script above (modhub.redis_pipe's
    client, without redis-py's command layers), which also takes a signed write's nonce and
    reads the catalogue generation, so the request needs no other round trip.
    """

    shared = True

    def __init__(self, client: redis.Redis, prefix: str = "modhub:quota"):
        super().__init__(client, _LUA)
        self.prefix = prefix
        self.generation_key = f"{prefix}:{GENERATION_KEY}"

    def hit(
        self,
        app_id: int,
        per_minute: int,
        per_day: int,
        now: float | None = None,
        *,
        nonce: str | None = None,
        nonce_ttl: int = 601,
    ) -> Verdict:
        """Count one request of an application, unless a window is full or `nonce` was seen.

        `nonce` (a signed write's timestamp and signature) is remembered for `nonce_ttl` seconds
        in the same round trip; a second request with it is refused as a replay (verdict 3).
        """
        now, w, keys, args = self._script_call(app_id, per_minute, per_day, now, nonce, nonce_ttl)
        try:
            reply = self._run_script(keys, args)
        except redis.RedisError as exc:
            raise ApiError("DEPENDENCY_UNAVAILABLE", "quota store (Redis) is unavailable") from exc
        return _verdict(reply, per_minute, per_day, w, now)

    async def hit_async(
        self,
        app_id: int,
        per_minute: int,
        per_day: int,
        now: float | None = None,
        *,
        nonce: str | None = None,
        nonce_ttl: int = 601,
    ) -> Verdict:
        """`hit` for a caller on an event loop: the loop serves other requests during the round
        trip, and the scripts of requests counted at the same moment share one write and one
        read (a `Pipe` per event loop)."""
        now, w, keys, args = self._script_call(app_id, per_minute, per_day, now, nonce, nonce_ttl)
        try:
            reply = await self._run_script_async(keys, args)
        except redis.RedisError as exc:
            raise ApiError("DEPENDENCY_UNAVAILABLE", "quota store (Redis) is unavailable") from exc
        return _verdict(reply, per_minute, per_day, w, now)

    def _script_call(self, app_id, per_minute, per_day, now, nonce, nonce_ttl) -> tuple:
        now = time.time() if now is None else now
        w = Windows.at(now)
        keys = [
            f"{self.prefix}:{app_id}:m:{w.minute}",
            f"{self.prefix}:{app_id}:d:{w.day}",
            self.generation_key,
        ]
        if nonce is not None:
            keys.append(f"{self.prefix}:{app_id}:seen:{nonce}")
        return now, w, keys, [per_minute, per_day, 120, 90000, nonce_ttl]

    def usage(self, app_id: int, now: float | None = None) -> tuple[int, int]:
        """Requests counted this minute and this UTC day, without counting one."""
        w = Windows.at(time.time() if now is None else now)
        try:
            m, d = self.client.mget(
                [f"{self.prefix}:{app_id}:m:{w.minute}", f"{self.prefix}:{app_id}:d:{w.day}"]
            )
        except redis.RedisError as exc:
            raise ApiError("DEPENDENCY_UNAVAILABLE", "quota store (Redis) is unavailable") from exc
        return int(m or 0), int(d or 0)


def _verdict(reply: list, per_minute: int, per_day: int, w: Windows, now: float) -> Verdict:
    verdict, m, d, g = reply
    return Verdict(int(verdict), per_minute, per_day, int(m), int(d), w, now, int(g))


class LocalQuota:
    """In-process counters for the embedded mode (each server process counts on its own); the
    catalogue generation is then the database's (models.record_cache), not the verdict's."""

    shared = False

    def __init__(self):
        self.lock = threading.Lock()
        self.counts: dict[tuple, int] = {}
        self.nonces = LocalNonces()
        self.minute = -1

    def hit(
        self,
        app_id: int,
        per_minute: int,
        per_day: int,
        now: float | None = None,
        *,
        nonce: str | None = None,
        nonce_ttl: int = 601,
    ) -> Verdict:
        """Count one request of an application, unless a window is full or `nonce` was seen."""
        now = time.time() if now is None else now
        w = Windows.at(now)
        mk, dk = (app_id, "m", w.minute), (app_id, "d", w.day)
        with self.lock:
            if w.minute != self.minute:  # drop finished windows so the dicts stay small
                self.counts = {k: v for k, v in self.counts.items() if k[1:] == ("d", w.day)}
                self.nonces.forget_expired(now)
                self.minute = w.minute
            m, d = self.counts.get(mk, 0), self.counts.get(dk, 0)
            verdict = 2 if d >= per_day else 1 if m >= per_minute else 0
            if verdict == 0 and nonce is not None and not self.nonces.take(app_id, nonce, now, nonce_ttl):
                verdict = 3
            if verdict == 0:
                m, d = m + 1, d + 1
                self.counts[mk], self.counts[dk] = m, d
        return Verdict(verdict, per_minute, per_day, m, d, w, now)

    async def hit_async(self, *args, **kwargs) -> Verdict:
        """`hit` (no I/O: the same call on an event loop)."""
        return self.hit(*args, **kwargs)

    def usage(self, app_id: int, now: float | None = None) -> tuple[int, int]:
        """Requests counted this minute and this UTC day, without counting one."""
        w = Windows.at(time.time() if now is None else now)
        with self.lock:
            return self.counts.get((app_id, "m", w.minute), 0), self.counts.get((app_id, "d", w.day), 0)


def quota_over(store: RedisStore | None) -> RedisQuota | LocalQuota:
    """The quota store of a platform: in its Redis when it has one, else in process."""
    return RedisQuota(store.client, store.prefix) if store is not None else LocalQuota()


def store_of(quota: RedisQuota | LocalQuota) -> RedisStore | None:
    """The Redis handle of a quota store (None for the in-process one)."""
    return RedisStore(quota.client, quota.prefix) if isinstance(quota, RedisQuota) else None
