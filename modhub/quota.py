"""Per-application request quotas: fixed windows aligned to the minute and the UTC day.

`RedisQuota` keeps the counters in Redis and checks both windows in one atomic round trip (a
Lua script), so every process and host shares them: `hit` from a worker thread, `hit_async` on an
event loop (without blocking it). `LocalQuota` is the embedded fallback and counts per process
only.
"""

from __future__ import annotations

import asyncio
import collections
import hashlib
import os
import socket
import threading
import time
import weakref
from dataclasses import dataclass

import hiredis
import redis

from modhub.core.errors import ApiError
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

_LUA_SHA = hashlib.sha1(_LUA.encode()).hexdigest()


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
        self._pipes: dict[asyncio.AbstractEventLoop, Pipe] = {}  # hit_async's, one per loop

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

    async def _run_script_async(self, keys: list[str], args: list) -> list:
        """EVALSHA on this loop's pipe, one round trip; as `_run_script`: EVAL (which loads the
        script) when Redis does not know it, a new connection once when Redis closed this one,
        no retry after a timeout."""
        command = ("EVALSHA", self.script.sha, len(keys), *keys, *args)
        stale_retried = loaded = False
        while True:
            try:
                reply = await self._pipe().call(command)
                if loaded:  # EVAL has loaded it: EVALSHA will do from now on
                    self.script.sha = _LUA_SHA
                return reply
            except redis.exceptions.NoScriptError:
                if loaded:
                    raise
                loaded = True
                command = ("EVAL", _LUA, *command[2:])
            except redis.ConnectionError:
                if stale_retried:
                    raise
                stale_retried = True

    def _pipe(self) -> Pipe:
        """The running loop's connection (opened on first use, and again after it was lost)."""
        loop = asyncio.get_running_loop()
        pipe = self._pipes.get(loop)
        if pipe is None or pipe.lost:
            for old in [k for k in list(self._pipes) if k.is_closed()]:  # finished tests' loops
                self._pipes.pop(old).close()
            pipe = self._pipes[loop] = Pipe(loop, self.client.connection_pool.connection_kwargs)
        return pipe

    def bump_catalog(self) -> None:
        """A committed change of the catalogue: every process's cached records are stale now.

        Called after the commit (a failure is logged by the caller; cached records then live out
        their time limit)."""
        self.client.incr(self.generation_key)

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


class Pipe:
    """One event loop's connection to Redis, pipelined: commands issued during one pass of the
    loop (the quota scripts of the requests it is serving) go out in one write at the end of the
    pass, and the replies, read as they come, settle the callers' futures in order.

    Redis runs each command whole (the quota script is atomic), so pipelining changes no count.
    A connection that fails (refused, closed by Redis, or silent past `socket_timeout`) is
    dropped: its pending calls raise ConnectionError or TimeoutError, and the next call opens a
    new one. Supports the settings of a plain `redis://` or `unix://` URL: address, database,
    user name and password. The socket is the pipe's own (a non-blocking socket watched by the
    loop), so a pipe outliving its loop (a test's) is closed without the loop.
    """

    def __init__(self, loop: asyncio.AbstractEventLoop, settings: dict):
        self.loop = loop
        self.timeout = settings.get("socket_timeout")
        self.sock: socket.socket | None = None
        self.reader = hiredis.Reader()
        self.waiting: collections.deque[asyncio.Future] = collections.deque()
        self.outgoing: list[bytes] = []
        self.unsent = b""  # what the socket did not take yet (written when it is writable)
        self.connected = self.lost = False
        setup = []  # written first; calls wait for their answers (a refused AUTH runs nothing)
        if settings.get("password"):
            setup.append(("AUTH", *filter(None, (settings.get("username"), settings["password"]))))
        if settings.get("db"):
            setup.append(("SELECT", settings["db"]))
        self.setup_pending = len(setup)
        self.opening = loop.create_task(self._open(settings, b"".join(map(hiredis.pack_command, setup))))

    async def _open(self, settings: dict, setup: bytes) -> None:
        try:
            await asyncio.wait_for(
                self._connect(settings), settings.get("socket_connect_timeout") or self.timeout
            )
        except TimeoutError:  # as redis-py's: a connection that timed out is not tried again
            self._drop(redis.TimeoutError("timeout connecting to Redis"))
            return
        except OSError as exc:
            self._drop(redis.ConnectionError(f"cannot connect to Redis: {exc}"))
            return
        sock = self.sock
        if self.lost:  # given up on meanwhile (the callers' timeout)
            self._drop(redis.ConnectionError("the connection to Redis timed out"))
            return
        self.loop.add_reader(sock.fileno(), self._readable)
        self.connected = True
        if setup:
            self._write(setup)
        self._flush()

    async def _connect(self, settings: dict) -> None:
        """Connect to the first address of the host that answers (as redis-py does)."""
        if settings.get("path"):
            addresses = [(socket.AF_UNIX, settings["path"])]
        else:
            addresses = [
                (family, address)
                for family, _, _, _, address in await self.loop.getaddrinfo(
                    settings.get("host", "localhost"), settings.get("port", 6379), type=socket.SOCK_STREAM
                )
            ]
        for n, (family, address) in enumerate(addresses, 1):
            self.close()
            self.sock = sock = socket.socket(family, socket.SOCK_STREAM)
            self._closer = weakref.finalize(self, sock.close)
            sock.setblocking(False)
            if family != socket.AF_UNIX:
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            try:
                await self.loop.sock_connect(sock, address)
                return
            except OSError:
                if n == len(addresses):
                    raise

    async def call(self, command: tuple):
        """Send one command; its reply (a Redis error raised as redis-py's exception)."""
        future = self._send(command)
        timer = self.loop.call_later(self.timeout, self._expire, future) if self.timeout else None
        try:
            reply = await future
        finally:
            if timer is not None:
                timer.cancel()
        if isinstance(reply, hiredis.ReplyError):
            message = str(reply)
            if message.startswith("NOSCRIPT"):
                raise redis.exceptions.NoScriptError(message)
            raise redis.ResponseError(message)
        return reply

    def _send(self, command: tuple) -> asyncio.Future:
        if self.lost:
            raise redis.ConnectionError("the connection to Redis was lost")
        future = self.loop.create_future()
        if not self.outgoing:
            self.loop.call_soon(self._flush)
        self.outgoing.append(hiredis.pack_command(command))
        self.waiting.append(future)
        return future

    def _flush(self) -> None:
        if self.outgoing and self.connected and not self.lost and not self.setup_pending:
            data = b"".join(self.outgoing)
            self.outgoing.clear()
            self._write(data)

    def _write(self, data: bytes) -> None:
        if self.unsent:  # the socket is full: after what waits
            self.unsent += data
            return
        try:
            sent = self.sock.send(data)
        except (BlockingIOError, InterruptedError):
            sent = 0
        except OSError as exc:
            self._drop(redis.ConnectionError(f"writing to Redis failed: {exc}"))
            return
        if sent < len(data):
            self.unsent = data[sent:]
            self.loop.add_writer(self.sock.fileno(), self._writable)

    def _writable(self) -> None:
        data, self.unsent = self.unsent, b""
        self.loop.remove_writer(self.sock.fileno())
        self._write(data)

    def _readable(self) -> None:
        try:
            data = self.sock.recv(65536)
        except (BlockingIOError, InterruptedError):
            return
        except OSError as exc:
            self._drop(redis.ConnectionError(f"reading from Redis failed: {exc}"))
            return
        if not data:
            self._drop(redis.ConnectionError("Redis closed the connection"))
            return
        self.reader.feed(data)
        while (reply := self.reader.gets()) is not False:
            if self.setup_pending:
                if isinstance(reply, hiredis.ReplyError):
                    self._drop(redis.ConnectionError(f"Redis refused the connection: {reply}"))
                    return
                self.setup_pending -= 1
                self._flush()
                continue
            future = self.waiting.popleft()
            if not future.done():  # a caller that timed out or was cancelled is gone
                future.set_result(reply)

    def _expire(self, future: asyncio.Future) -> None:
        if not future.done():  # no answer within the socket timeout: a stalled Redis
            future.set_exception(redis.TimeoutError("Redis did not answer within the timeout"))
            self._drop(redis.ConnectionError("the connection to Redis timed out"))

    def _drop(self, error: Exception) -> None:
        """Fail every pending call with `error` and close the socket."""
        self.lost = True
        self.outgoing.clear()
        while self.waiting:
            future = self.waiting.popleft()
            if not future.done():
                future.set_exception(error)
        self.close()

    def close(self) -> None:
        """Close the socket (from the loop, or after the loop closed)."""
        if self.sock is None:
            return
        if not self.loop.is_closed() and self.sock.fileno() >= 0:
            self.loop.remove_reader(self.sock.fileno())
            self.loop.remove_writer(self.sock.fileno())
        self._closer()


class LocalQuota:
    """In-process counters for the embedded mode (each server process counts on its own)."""

    shared = False

    def __init__(self):
        self.lock = threading.Lock()
        self.counts: dict[tuple, int] = {}
        self.nonces = LocalNonces()
        self.minute = -1
        self.generation = 0

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
        return Verdict(verdict, per_minute, per_day, m, d, w, now, self.generation)

    async def hit_async(self, *args, **kwargs) -> Verdict:
        """`hit` (no I/O: the same call on an event loop)."""
        return self.hit(*args, **kwargs)

    def bump_catalog(self) -> None:
        """A committed change of the catalogue (one process: its own counter)."""
        with self.lock:
            self.generation += 1

    def usage(self, app_id: int, now: float | None = None) -> tuple[int, int]:
        """Requests counted this minute and this UTC day, without counting one."""
        w = Windows.at(time.time() if now is None else now)
        with self.lock:
            return self.counts.get((app_id, "m", w.minute), 0), self.counts.get((app_id, "d", w.day), 0)
