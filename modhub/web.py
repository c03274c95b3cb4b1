"""What handlers use: the request's database session, the platform, the caller, the request's
headers and body, and their responses.

The API operations run under Connexion's AsyncApp (modhub.app): each one is an `Operation`,
which awaits an operation's on-loop answer when it has one (`on_loop`: the record cache) and
otherwise runs the handler in the bounded pool of database threads, then commits or rolls back
the request's session there in the same hop. The site pages run in Flask (modhub.site): the same
functions answer from Flask's request context there.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import flask
from connexion.context import _receive, _scope
from sqlalchemy import event
from sqlalchemy.orm import Session
from starlette.datastructures import Headers
from starlette.responses import Response, StreamingResponse
from werkzeug.exceptions import ClientDisconnected

from modhub import envelope
from modhub.core.errors import ApiError
from modhub.envelope import (
    ok,  # noqa: F401  (handlers import the envelope from here)
)
from modhub.etags import etag_of, none_match

WROTE = "modhub_wrote"


class Call:
    """One API operation's request, as its handler sees it (modhub.web's functions)."""

    def __init__(
        self, platform, scope: dict, receive, loop: asyncio.AbstractEventLoop, *, read_only: bool = False
    ):
        self.platform = platform
        self.scope = scope
        self.receive = receive
        self.loop = loop
        self.read_only = read_only
        self.db: Session | None = None
        self._headers: Headers | None = None

    @property
    def headers(self) -> Headers:
        """The request's headers (case-insensitive)."""
        if self._headers is None:
            self._headers = Headers(scope=self.scope)
        return self._headers

    def session(self) -> Session:
        """The request's one session, opened (or taken from the gateway) on first use: a read-only
        handler's on its thread's kept connection (Database.read_session(leased=True): the
        session is used on the handlers' pool thread that asks for it)."""
        if self.db is None:
            state = envelope.current.get(None)
            db = self.platform.db
            self.db = (state and state.take_session()) or (
                db.read_session(leased=True) if self.read_only else db.session()
            )
        return self.db

    def run(self, function, kwargs: dict):
        """function(**kwargs) in a handler thread, then the session's end: committed when the
        answer is a success and something was written, else rolled back; always closed."""
        try:
            result = function(**kwargs)
        except BaseException:
            self._end(commit=False)
            raise
        self._end(commit=_status(result) < 400)
        return result

    def _end(self, *, commit: bool) -> None:
        db, self.db = self.db, None
        if db is None:
            return
        try:
            if commit and wrote(db):
                db.commit()
            elif not commit:
                db.rollback()
        finally:
            db.close()


def _status(result) -> int:
    """The HTTP status of a handler's return value (a body alone is 200)."""
    status = getattr(result, "status_code", None)
    if status is not None:
        return status
    if isinstance(result, tuple) and len(result) > 1 and isinstance(result[1], int):
        return result[1]
    return 200


_call: contextvars.ContextVar[Call] = contextvars.ContextVar("modhub_call")


ON_LOOP: dict[Callable[..., Any], Callable[..., Any]] = {}  # handler -> its on-loop answer


def answer_on_loop(handler: Callable[..., Any], fast: Callable[..., Any]) -> None:
    """Register `fast(**kwargs)` as `handler`'s answer from memory, tried first on the event loop
    (None: the handler runs in the thread pool as usual)."""
    ON_LOOP[handler] = fast


READS_ONLY: set[Callable[..., Any]] = set()  # handlers whose session only reads


def reads_only(handler: Callable[..., Any]) -> None:
    """Register a handler that never writes: its session is Database.read_session() (on
    PostgreSQL, autocommit: one round trip a SELECT). A write through it would not be atomic
    with the rest of the request: the test suite runs every registered handler with a check
    that its session executes SELECTs only."""
    READS_ONLY.add(handler)


def Operation(function, platform, pool: ThreadPoolExecutor):  # noqa: N802 - reads as a type
    """An API operation's handler as Connexion's AsyncApp awaits it (a coroutine function with
    the handler's signature, which Connexion reads for the arguments to pass).

    The handler's on-loop answer (answer_on_loop), when it has one, is tried first on the loop: it
    answers from memory (kept records) or returns None. Otherwise the handler runs in the
    bounded thread pool (`pool`), in the request's context, with its session's end (Call.run):
    one hand-off to the thread and one back.
    """
    on_loop = ON_LOOP.get(function)
    read_only = function in READS_ONLY

    @functools.wraps(function)
    async def operation(**kwargs):
        loop = asyncio.get_running_loop()
        call = Call(platform, _scope.get(), _receive.get(), loop, read_only=read_only)
        token = _call.set(call)
        try:
            if on_loop is not None:
                answer = on_loop(**kwargs)
                if answer is not None:
                    return answer
            context = contextvars.copy_context()
            return await loop.run_in_executor(pool, context.run, call.run, function, kwargs)
        finally:
            _call.reset(token)

    return operation


def platform():
    """The Platform (settings, database, quota, secrets, clock) of the running app."""
    call = _call.get(None)
    if call is not None:
        return call.platform
    return flask.current_app.extensions["modhub"]


def session() -> Session:
    """The request's one session (the gateway's, when it checked a proxy user); committed once
    when the request succeeds and something was written."""
    call = _call.get(None)
    if call is not None:
        return call.session()
    if "db" not in flask.g:
        state = envelope.current.get(None)
        flask.g.db = (state and state.take_session()) or platform().db.session()
    return flask.g.db


def request_headers():
    """The request's headers (case-insensitive mapping)."""
    call = _call.get(None)
    return call.headers if call is not None else flask.request.headers


def request_method() -> str:
    """The request's HTTP method."""
    call = _call.get(None)
    return call.scope["method"] if call is not None else flask.request.method


def remote_addr() -> str:
    """The address of the peer (the proxy, behind one), or '-'."""
    call = _call.get(None)
    if call is not None:
        return (call.scope.get("client") or ("-",))[0] or "-"
    return flask.request.remote_addr or "-"


def request_stream():
    """The request body as a file-like object read(n) from a handler thread, not held whole."""
    call = _call.get(None)
    if call is None:
        return flask.request.stream
    length = call.headers.get("content-length")
    return BodyStream(call.receive, call.loop, int(length) if length and length.isdigit() else None)


class BodyStream:
    """read(n) over an ASGI request body, from a thread: each chunk is awaited on the loop.
    A body that ends before its Content-Length (or a disconnection) raises ClientDisconnected,
    as werkzeug's request stream does."""

    def __init__(self, receive, loop: asyncio.AbstractEventLoop, length: int | None):
        self.receive = receive
        self.loop = loop
        self.length = length
        self.buffer = bytearray()
        self.seen = 0
        self.ended = False

    def read(self, size: int = -1) -> bytes:
        """Up to size bytes (all the rest when size < 0); b'' at the end of the body."""
        while not self.ended and (size < 0 or len(self.buffer) < size):
            message = asyncio.run_coroutine_threadsafe(self.receive(), self.loop).result()
            if message["type"] != "http.request":
                raise ClientDisconnected()
            chunk = message.get("body", b"")
            self.seen += len(chunk)
            self.buffer += chunk
            if not message.get("more_body", False):
                self.ended = True
                if self.length is not None and self.seen < self.length:
                    raise ClientDisconnected()
        if size < 0:
            size = len(self.buffer)
        data = bytes(self.buffer[:size])
        del self.buffer[:size]
        return data


def respond(body=b"", *, status: int = 200, headers: dict | None = None, mimetype: str | None = None):
    """A response of fixed bytes: Starlette's for an API operation, Flask's on a site page."""
    if _call.get(None) is not None:
        return Response(body, status_code=status, headers=headers, media_type=mimetype)
    return flask.Response(body, status=status, headers=headers, mimetype=mimetype)


def respond_stream(chunks, *, status: int, headers: dict, mimetype: str):
    """A response streamed from an iterable of bytes (a stored file), never held whole."""
    if _call.get(None) is not None:
        return StreamingResponse(chunks, status_code=status, headers=headers, media_type=mimetype)
    return flask.Response(chunks, status=status, headers=headers, mimetype=mimetype, direct_passthrough=True)


@event.listens_for(Session, "after_flush")
def _flushed(session, _context) -> None:
    session.info[WROTE] = True


@event.listens_for(Session, "do_orm_execute")
def _executed(state) -> None:
    if not state.is_select:  # an UPDATE / DELETE / INSERT statement, or text of any kind
        state.session.info[WROTE] = True


def wrote(db: Session) -> bool:
    """Whether the session flushed or executed anything but a SELECT since it was opened."""
    return bool(db.info.get(WROTE))


def code_guard():
    """The wrong-code counters (modhub.guessing.CodeGuard) of the running app."""
    return platform().code_guard


def caller() -> envelope.RequestState:
    """The request's state: app id and proxy user resolved by the gateway."""
    return envelope.current.get()


def caller_app_id() -> int:
    """The application of a signed operation (the gateway has already verified its signature)."""
    app_id = caller().app_id
    if app_id is None:
        raise ApiError("AUTH_HEADERS_MISSING")
    return app_id


def proxy_user_id() -> int:
    """The proxy user of a P or T operation (the gateway has already required one)."""
    user_id = caller().proxy_user_id
    if user_id is None:
        raise ApiError("PROXY_USER_REQUIRED")
    return user_id


def ok_tagged(data):
    """ok(data) with a weak ETag over data alone (not the traceId); a matching If-None-Match
    answers 304 with no body. Data is serialized once, for the tag and the body alike."""
    return ok_tagged_json(envelope.dumps_bytes(data), data_type=envelope.data_type(data))


def ok_tagged_json(data_json: bytes, *, data_type: int, etag: str | None = None):
    """ok_tagged() of data already serialized as UTF-8 JSON (`data_type` as in the envelope);
    `etag`: its etag_of(), when the caller has it."""
    body = envelope.ok_bytes(data_json, data_type)
    return respond_tagged(body, etag or etag_of(data_json), mimetype="application/json")


def respond_tagged(body: bytes, etag: str, *, mimetype: str):
    """`body` with its ETag; 304 with no body when If-None-Match matches it."""
    if none_match(request_headers().get("If-None-Match"), etag):
        return respond(status=304, headers={"ETag": etag})
    return respond(body, headers={"ETag": etag}, mimetype=mimetype)


def install_session_lifecycle(app: flask.Flask) -> None:
    """Commit the request's session once after a successful handler that wrote something;
    always close it (a read-only request ends with the connection's return, no COMMIT)."""

    @app.after_request
    def _commit(response):
        db = flask.g.pop("db", None)
        if db is not None:
            try:
                if response.status_code < 400 and wrote(db):
                    db.commit()
            finally:
                db.close()
        return response

    @app.teardown_request
    def _close(_exc):
        db = flask.g.pop("db", None)
        if db is not None:
            db.rollback()
            db.close()
