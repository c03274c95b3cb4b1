"""A Redis script client for the request path: one round trip per call, from a worker thread or
on an event loop, without redis-py's command layers.

`ScriptClient` runs one Lua script by EVALSHA: `_run_script` on a connection of its own taken from
a free list (threads), `_run_script_async` on its event loop's `Pipe` (pipelined: the calls of one
pass of the loop go out in one write). modhub.quota builds the request's one round trip on it.
"""

from __future__ import annotations

import asyncio
import collections
import hashlib
import os
import socket
import weakref

import hiredis
import redis


class ScriptClient:
    """Runs one Lua script on Redis in one round trip per call.

    It skips redis-py's command layers (the Script wrapper, the client's retry loop, the pool's
    checks and metrics: about half of the call's CPU, measured): it sends EVALSHA on a connection
    of its own, taken from a free list (one per concurrent call, made with the client pool's
    settings: address, timeouts, database, credentials). A connection that fails is closed (the
    next use reconnects); one closed by Redis (a restart) is reopened once and the script sent
    again; a timeout is not retried (the caller answers 200503 after one socket timeout).
    """

    def __init__(self, client: redis.Redis, lua: str):
        self.client = client
        self.lua = lua
        self.lua_sha = hashlib.sha1(lua.encode()).hexdigest()
        self.script = client.register_script(lua)
        self._idle: list = []  # connections between calls (list.pop/append: atomic)
        self._pid = os.getpid()
        self._pipes: dict[asyncio.AbstractEventLoop, Pipe] = {}  # _run_script_async's, one per loop

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
                    self.script.sha = self.client.script_load(self.lua)
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
                    self.script.sha = self.lua_sha
                return reply
            except redis.exceptions.NoScriptError:
                if loaded:
                    raise
                loaded = True
                command = ("EVAL", self.lua, *command[2:])
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
