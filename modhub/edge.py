"""The outermost middleware: request id, body-size limit, and the headers every response gets."""

from __future__ import annotations

import json

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from modhub import envelope
from modhub.errors import ApiError


class EdgeMiddleware:
    """Gives each request its id and state, enforces the body limit, and stamps the headers.

    It wraps Connexion's exception middleware, so the headers it adds (X-Request-Id, the quota
    headers queued by the gateway) appear on success and error responses alike.
    """

    def __init__(self, app: ASGIApp, *, max_body_bytes: int):
        self.app = app
        self.max_body_bytes = max_body_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        incoming = next((v.decode("latin-1") for k, v in scope["headers"] if k == b"x-request-id"),
                        None)
        state = envelope.RequestState(envelope.request_id_from(incoming))
        token = envelope.current.set(state)
        try:
            await self._dispatch(scope, receive, send, state)
        finally:
            envelope.current.reset(token)

    async def _dispatch(self, scope, receive, send, state) -> None:
        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [h for h in message.get("headers", []) if h[0].lower() != b"x-request-id"]
                headers.append((b"x-request-id", state.request_id.encode()))
                headers.extend(state.headers)
                message = {**message, "headers": headers}
            await send(message)

        length = next((v for k, v in scope["headers"] if k == b"content-length"), None)
        if length is not None and length.isdigit() and int(length) > self.max_body_bytes:
            await self._refuse_too_large(send_with_headers)
            return
        await self.app(scope, self._limited(receive), send_with_headers)

    def _limited(self, receive: Receive) -> Receive:
        """A receive that refuses a streamed body once it passes the limit."""
        seen = 0

        async def limited_receive() -> Message:
            nonlocal seen
            message = await receive()
            seen += len(message.get("body", b""))
            if seen > self.max_body_bytes:
                raise ApiError("BODY_TOO_LARGE", f"request body exceeds {self.max_body_bytes} bytes")
            return message

        return limited_receive

    async def _refuse_too_large(self, send: Send) -> None:
        exc = ApiError("BODY_TOO_LARGE", f"request body exceeds {self.max_body_bytes} bytes")
        body = json.dumps(envelope.error(exc.code, exc.message, exc.status)).encode()
        await send({"type": "http.response.start", "status": exc.status,
                    "headers": [(b"content-type", b"application/json"),
                                (b"content-length", str(len(body)).encode()),
                                (b"connection", b"close")]})
        await send({"type": "http.response.body", "body": body})
