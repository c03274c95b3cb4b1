"""The outermost middleware: request id, body-size limits, and the headers every response gets."""

from __future__ import annotations

import re
import time
from urllib.parse import urlsplit, urlunsplit

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from modhub import envelope
from modhub.core.errors import ApiError

_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
# RFC 9110 media type: type "/" subtype, then parameters; tokens of visible ASCII.
_TOKEN = rb"[!#$%&'*+.^_`|~0-9A-Za-z-]+"
_MEDIA_TYPE = re.compile(rb"[ \t]*" + _TOKEN + rb"/" + _TOKEN + rb"[ \t]*(;[\x20-\x7e\t]*)?")
OCTETS = b"application/octet-stream"


def _too_large(limit: int) -> ApiError:
    return ApiError("BODY_TOO_LARGE", f"request body exceeds {limit} bytes")


def upload_paths(document: dict) -> list[re.Pattern]:
    """Path patterns of the operations that take multipart uploads (they get the upload limit)."""
    patterns = []
    for path, item in document.get("paths", {}).items():
        for method in ("post", "put", "patch"):
            content = item.get(method, {}).get("requestBody", {}).get("content", {})
            if "multipart/form-data" in content:
                patterns.append(re.compile("^" + re.sub(r"\{\w+\}", "[^/]+", path) + "$"))
    return patterns


def _relative_location(header: tuple[bytes, bytes], host: bytes | None) -> tuple[bytes, bytes]:
    """A Location header pointing at the request's own Host made relative: Host is never reflected.

    Redirects elsewhere (an OAuth client's redirect_uri) are left alone.
    """
    name, value = header
    if not host:
        return header
    parts = urlsplit(value.decode("latin-1"))
    if parts.scheme not in ("http", "https") or parts.netloc.lower() != host.decode("latin-1").lower():
        return header
    return name, urlunsplit(("", "", parts.path or "/", parts.query, "")).encode("latin-1")


class EdgeMiddleware:
    """Gives each request its id and state, enforces the body limits, and stamps the headers.

    It wraps Connexion's exception middleware, so the headers it adds (X-Request-Id,
    Server-Timing, X-Modhub-Time-Zone, the quota headers queued by the gateway) appear on success and error
    responses alike. A body without Content-Length (chunked) is read up to the limit and
    replayed with its length, so the layers behind see an ordinary request.
    """

    def __init__(
        self,
        app: ASGIApp,
        *,
        max_body_bytes: int,
        max_upload_bytes: int,
        uploads: list[re.Pattern],
        max_header_bytes: int = 32 * 1024,
        time_zone: str = "",
        slashed: tuple[str, ...] = ("/",),
    ):
        self.app = app
        self.stamps = [(b"x-modhub-time-zone", time_zone.encode("latin-1"))] if time_zone else []
        self.slashed = frozenset(slashed)
        self.max_header_bytes = max_header_bytes
        self.max_body_bytes = max_body_bytes
        self.max_upload_bytes = max_upload_bytes
        self.uploads = uploads

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        headers = dict(scope["headers"])
        incoming = headers.get(b"x-request-id")
        state = envelope.RequestState(
            envelope.request_id_from(incoming.decode("latin-1") if incoming else None)
        )
        token = envelope.current.set(state)
        try:
            await self._dispatch(
                scope,
                receive,
                self._stamping(send, state, started, headers.get(b"host"), self.stamps),
                headers,
            )
        finally:
            envelope.current.reset(token)

    @staticmethod
    def _stamping(
        send: Send, state: envelope.RequestState, started: float, host: bytes | None, stamps: list
    ) -> Send:
        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = []
                for header in message.get("headers", ()):
                    name = header[0].lower()
                    if name == b"location":
                        header = _relative_location(header, host)
                    elif name == b"x-request-id":
                        continue
                    headers.append(header)
                headers.append((b"x-request-id", state.request_id.encode()))
                elapsed = (time.perf_counter() - started) * 1000
                headers.append((b"server-timing", b"app;dur=%.2f" % elapsed))
                headers.extend(stamps)  # X-Modhub-Time-Zone: the platform's, on every answer
                headers.extend(state.headers)
                message = {**message, "headers": headers}
            await send(message)

        return send_with_headers

    def _limit(self, path: str) -> int:
        if any(p.match(path) for p in self.uploads):
            return self.max_upload_bytes
        return self.max_body_bytes

    async def _dispatch(self, scope: Scope, receive: Receive, send: Send, headers: dict) -> None:
        if b"content-type" in headers:
            scope = _media_typed(scope)
        if _CONTROL.search(scope["path"]) or scope["path"].startswith("//"):
            # No route has control characters or starts with `//`; the routers disagree on them
            # (a `//` path is an authority to some), so refuse here.
            await self._refuse(send, ApiError("PATH_NOT_FOUND"))
            return
        if scope["path"].endswith("/") and scope["path"] not in self.slashed:
            # Paths are exact: a trailing slash is another path, answered 404 rather than the
            # router's 307 to the bare path (the redirected request would carry a signature
            # over the path it no longer asks for).
            await self._refuse(send, ApiError("PATH_NOT_FOUND"))
            return
        if sum(len(k) + len(v) for k, v in scope["headers"]) > self.max_header_bytes:
            await self._refuse(
                send, ApiError("HEADERS_TOO_LARGE", f"request headers exceed {self.max_header_bytes} bytes")
            )
            return
        length = headers.get(b"content-length")
        if length is not None:
            if length.isdigit() and int(length) > (limit := self._limit(scope["path"])):
                await self._refuse(send, _too_large(limit))
                return
            await self.app(scope, receive, send)
            return
        if b"chunked" not in headers.get(b"transfer-encoding", b""):
            await self.app(scope, receive, send)
            return
        limit = self._limit(scope["path"])
        body = bytearray()
        while True:
            message = await receive()
            body += message.get("body", b"")
            if len(body) > limit:
                await self._refuse(send, _too_large(limit))
                return
            if not message.get("more_body"):
                break
        await self.app(self._with_length(scope, len(body)), self._replay(bytes(body), receive), send)

    @staticmethod
    def _with_length(scope: Scope, length: int) -> Scope:
        kept = [(k, v) for k, v in scope["headers"] if k != b"transfer-encoding"]
        return {**scope, "headers": kept + [(b"content-length", str(length).encode())]}

    @staticmethod
    def _replay(body: bytes, receive: Receive) -> Receive:
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if sent:
                return await receive()
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}

        return replay

    @staticmethod
    async def _refuse(send: Send, exc: ApiError) -> None:
        body = envelope.error_bytes(exc)
        await send(
            {
                "type": "http.response.start",
                "status": exc.status,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                    (b"connection", b"close"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})


def _media_typed(scope: Scope) -> Scope:
    """A Content-Type that is not a media type (`type/subtype`, visible ASCII) is read as
    application/octet-stream, as for a body without one (RFC 9110 8.3): the layers behind parse
    only well-formed values, and an operation that takes JSON refuses it with 415."""
    if all(k != b"content-type" or _MEDIA_TYPE.fullmatch(v) for k, v in scope["headers"]):
        return scope
    kept = [
        (k, OCTETS if k == b"content-type" and not _MEDIA_TYPE.fullmatch(v) else v)
        for k, v in scope["headers"]
    ]
    return {**scope, "headers": kept}
