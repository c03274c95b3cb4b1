"""The ASGI-to-WSGI bridge in front of Flask: one thread hand-off per ordinary response.

Connexion serves its Flask app through a2wsgi, whose worker thread hands every piece of the
response to the event loop and waits for the loop to take it: the status and headers, each body
chunk and the closing empty chunk, three waits of the thread on the loop for a one-chunk JSON
answer, on top of the hand-off that starts the thread (the py-spy profile of the stack floor:
the thread wake-ups, `Condition.notify` and `ThreadPoolExecutor.submit`, were the largest items).
`OneHopWSGI` lets the thread run the application and read its body up to `BUFFER` bytes, then
returns it all to the loop at once: a response that fits (every JSON answer) costs one hand-off
there and one back. A longer body (a file download) goes on in further hand-offs of up to
`BUFFER` bytes each, so it is never held whole in memory. The request side is a2wsgi's own (the
environ, and a body read from the thread through the loop), and so is the thread pool.
"""

from __future__ import annotations

import asyncio
import contextvars
from collections.abc import Iterable, Iterator

from a2wsgi.asgi_typing import Receive, Scope, Send
from a2wsgi.wsgi import Body, WSGIMiddleware, build_environ
from a2wsgi.wsgi_typing import Environ

BUFFER = 64 * 1024  # body bytes read per hand-off


class _Call:
    """One WSGI call, driven from the worker thread one hand-off at a time."""

    def __init__(self, app, environ: Environ):
        self.app = app
        self.environ = environ
        self.status: int | None = None
        self.headers: list[tuple[bytes, bytes]] = []
        self.pending: list[bytes] = []  # what write() and the iterable gave, not handed over yet
        self.iterable: Iterable[bytes] | None = None
        self.iterator: Iterator[bytes] = iter(())
        self.started = False  # the status and headers were handed to the loop

    def start_response(self, status: str, headers: list, exc_info=None):
        if exc_info is not None and self.started:  # PEP 3333: too late to change the headers
            raise exc_info[1].with_traceback(exc_info[2])
        self.status = int(status.split(" ", 1)[0])
        self.headers = [
            (name.strip().encode("latin1").lower(), value.strip().encode("latin1")) for name, value in headers
        ]
        return self.pending.append  # the legacy write() callable

    def first(self) -> tuple[list[bytes], bool]:
        """Run the application: the first body chunks and whether the body ended."""
        self.iterable = iterable = self.app(self.environ, self.start_response)
        self.iterator = iter(iterable)
        chunks, done = self.more()
        if self.status is None:
            raise RuntimeError("the WSGI application did not call start_response")
        self.started = True
        return chunks, done

    def more(self) -> tuple[list[bytes], bool]:
        """The next body chunks (up to BUFFER bytes) and whether the body ended (then closed)."""
        size = sum(map(len, self.pending))
        try:
            for chunk in self.iterator:
                self.pending.append(chunk)
                size += len(chunk)
                if size >= BUFFER:
                    break
            else:
                self.close()
                return self._take(), True
        except BaseException:
            self.close()
            raise
        return self._take(), False

    def _take(self) -> list[bytes]:
        chunks, self.pending = self.pending, []
        return chunks

    def close(self) -> None:
        """Close the iterable (PEP 3333), once."""
        iterable, self.iterable = self.iterable, None
        close = getattr(iterable, "close", None)
        if close is not None:
            close()


class OneHopWSGI(WSGIMiddleware):
    """a2wsgi's WSGIMiddleware, answering HTTP requests in one hand-off each way (see above)."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await super().__call__(scope, receive, send)
            return
        loop = asyncio.get_running_loop()
        call = _Call(self.app, build_environ(scope, Body(loop, receive)))
        context = contextvars.copy_context()  # the request's (one hand-off at a time enters it)

        def in_thread(step):
            return loop.run_in_executor(self.executor, context.run, step)

        try:
            chunks, done = await in_thread(call.first)
            assert call.status is not None  # first() raised otherwise
            await send({"type": "http.response.start", "status": call.status, "headers": call.headers})
            while not done:
                for chunk in chunks:
                    if chunk:
                        await send({"type": "http.response.body", "body": chunk, "more_body": True})
                chunks, done = await in_thread(call.more)
            await send({"type": "http.response.body", "body": b"".join(chunks), "more_body": False})
        finally:
            if call.iterable is not None:  # an error or a disconnection in the middle of a body
                await in_thread(call.close)


def install(connexion_app) -> None:
    """Serve the Flask side of a Connexion FlaskApp through OneHopWSGI (same thread pool size)."""
    flask_side = connexion_app.middleware.app
    old = flask_side.asgi_app
    flask_side.asgi_app = OneHopWSGI(
        old.app, workers=old.executor._max_workers, send_queue_size=old.send_queue_size
    )
    old.executor.shutdown(wait=False)
