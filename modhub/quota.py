"""Per-application request quotas: fixed windows aligned to the minute and the UTC day.

`RedisQuota` keeps the counters in Redis and checks both windows in one atomic round trip (a
Lua script), so every process and host shares them. `LocalQuota` is the embedded fallback and
counts per process only.
"""

from __future__ import annotations

import os
import threading
import time
from dataclasses import dataclass

import redis

from modhub.core.errors import ApiError

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
    generation: int = 0  # the catalogue generation (see `bump_catalog`)

    def headers(self) -> list[tuple[str, str]]:
        """The X-RateLimit-* headers of this response."""
        return [
            ("X-RateLimit-Limit", str(self.per_minute)),
            ("X-RateLimit-Remaining", str(max(0, self.per_minute - self.minute_count))),
            ("X-RateLimit-Reset", str(self.windows.minute_reset)),
            ("X-RateLimit-Daily-Limit", str(self.per_day)),
            ("X-RateLimit-Daily-Remaining", str(max(0, self.per_day - self.day_count))),
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


class RedisQuota:
    """Quota counters in Redis, shared by every server process and host.

    `hit` runs on every signed request, so it skips redis-py's command layers (the Script
    wrapper, the client's retry loop, the pool's checks and metrics: about half of the call's
    CPU, measured): it sends EVALSHA on a connection of its own, taken from a free list (one per
    concurrent call, made with the client pool's settings: address, timeouts, database,
    credentials). A connection that fails is closed (the next use reconnects); one closed by
    Redis (a restart) is reopened once and the script sent again; a timeout is not retried (the
    request answers 200503 after one socket timeout).
    """

    shared = True

    def __init__(self, client: redis.Redis, prefix: str = "modhub:quota"):
        self.client = client
        self.prefix = prefix
        self.script = client.register_script(_LUA)
        self.generation_key = f"{prefix}:catalog:generation"
        self._idle: list = []  # connections between calls (list.pop/append: atomic)
        self._pid = os.getpid()

    def _checkout(self):
        if self._pid != os.getpid():  # a forked child never shares its parent's sockets
            self._idle, self._pid = [], os.getpid()
        try:
            return self._idle.pop()
        except IndexError:
            pool = self.client.connection_pool
            return pool.connection_class(**pool.connection_kwargs)

    def _run_script(self, keys: list[str], args: list) -> list:
        """EVALSHA of the quota script, one round trip (loading the script first when Redis
        does not know it: after a restart or SCRIPT FLUSH)."""
        conn = self._checkout()
        try:
            stale_retried = loaded = False
            while True:
                try:
                    conn.send_command("EVALSHA", self.script.sha, len(keys), *keys, *args)
                    return conn.read_response()
                except redis.exceptions.NoScriptError:
                    if loaded:
                        raise
                    loaded = True
                    self.script.sha = self.client.script_load(_LUA)
                except redis.ConnectionError:
                    if stale_retried:
                        raise
                    stale_retried = True
                    conn.disconnect()
        except BaseException:
            conn.disconnect()  # whatever the socket was left with, its next use starts afresh
            raise
        finally:
            self._idle.append(conn)

    def hit(self, app_id: int, per_minute: int, per_day: int, now: float | None = None, *,
            nonce: str | None = None, nonce_ttl: int = 601) -> Verdict:
        """Count one request of an application, unless a window is full or `nonce` was seen.

        `nonce` (a signed write's timestamp and signature) is remembered for `nonce_ttl` seconds
        in the same round trip; a second request with it is refused as a replay (verdict 3).
        """
        now = time.time() if now is None else now
        w = Windows.at(now)
        keys = [f"{self.prefix}:{app_id}:m:{w.minute}", f"{self.prefix}:{app_id}:d:{w.day}",
                self.generation_key]
        if nonce is not None:
            keys.append(f"{self.prefix}:{app_id}:seen:{nonce}")
        try:
            verdict, m, d, g = self._run_script(keys, [per_minute, per_day, 120, 90000, nonce_ttl])
        except redis.RedisError as exc:
            raise ApiError("DEPENDENCY_UNAVAILABLE", "quota store (Redis) is unavailable") from exc
        return Verdict(int(verdict), per_minute, per_day, int(m), int(d), w, now, int(g))

    def bump_catalog(self) -> None:
        """A committed change of the catalogue: every process's cached records are stale now.

        Called after the commit (a failure is logged by the caller; cached records then live out
        their time limit)."""
        self.client.incr(self.generation_key)

    def usage(self, app_id: int, now: float | None = None) -> tuple[int, int]:
        """Requests counted this minute and this UTC day, without counting one."""
        w = Windows.at(time.time() if now is None else now)
        try:
            m, d = self.client.mget([f"{self.prefix}:{app_id}:m:{w.minute}",
                                     f"{self.prefix}:{app_id}:d:{w.day}"])
        except redis.RedisError as exc:
            raise ApiError("DEPENDENCY_UNAVAILABLE", "quota store (Redis) is unavailable") from exc
        return int(m or 0), int(d or 0)


class LocalQuota:
    """In-process counters for the embedded mode (each server process counts on its own)."""

    shared = False

    def __init__(self):
        self.lock = threading.Lock()
        self.counts: dict[tuple, int] = {}
        self.seen: dict[tuple, float] = {}
        self.minute = -1
        self.generation = 0

    def hit(self, app_id: int, per_minute: int, per_day: int, now: float | None = None, *,
            nonce: str | None = None, nonce_ttl: int = 601) -> Verdict:
        """Count one request of an application, unless a window is full or `nonce` was seen."""
        now = time.time() if now is None else now
        w = Windows.at(now)
        mk, dk = (app_id, "m", w.minute), (app_id, "d", w.day)
        with self.lock:
            if w.minute != self.minute:  # drop finished windows so the dicts stay small
                self.counts = {k: v for k, v in self.counts.items() if k[1:] == ("d", w.day)}
                self.seen = {k: v for k, v in self.seen.items() if v > now}
                self.minute = w.minute
            m, d = self.counts.get(mk, 0), self.counts.get(dk, 0)
            verdict = 2 if d >= per_day else 1 if m >= per_minute else 0
            if verdict == 0 and nonce is not None:
                if self.seen.get((app_id, nonce), 0) > now:
                    verdict = 3
                else:
                    self.seen[(app_id, nonce)] = now + nonce_ttl
            if verdict == 0:
                m, d = m + 1, d + 1
                self.counts[mk], self.counts[dk] = m, d
        return Verdict(verdict, per_minute, per_day, m, d, w, now, self.generation)

    def bump_catalog(self) -> None:
        """A committed change of the catalogue (one process: its own counter)."""
        with self.lock:
            self.generation += 1

    def usage(self, app_id: int, now: float | None = None) -> tuple[int, int]:
        """Requests counted this minute and this UTC day, without counting one."""
        w = Windows.at(time.time() if now is None else now)
        with self.lock:
            return self.counts.get((app_id, "m", w.minute), 0), self.counts.get((app_id, "d", w.day), 0)
