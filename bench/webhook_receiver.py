"""The benchmark's webhook receiver: a raw ASGI app (uvicorn) that checks every signature and
records the first receipt time of each X-Webhook-Id. GET /stats returns the record."""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import time

SECRET_ENV = "BENCH_WEBHOOK_SECRET"
_first: dict[str, float] = {}
_counts = {"count": 0, "bad": 0}


def _ok(secret: bytes, headers: dict, body: bytes) -> bool:
    want = (
        hmac.new(secret, headers.get(b"x-webhook-timestamp", b"") + b"\n" + body, hashlib.sha256)
        .hexdigest()
        .encode()
    )
    return any(hmac.compare_digest(want, v) for v in headers.get(b"x-webhook-signature", b"").split(b","))


async def _body(receive) -> bytes:
    chunks, more = [], True
    while more:
        message = await receive()
        chunks.append(message.get("body", b""))
        more = message.get("more_body", False)
    return b"".join(chunks)


async def _answer(send, status: int, payload: bytes) -> None:
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(payload)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": payload})


async def app(scope, receive, send):
    """ASGI entry point."""
    if scope["type"] != "http":
        return
    body = await _body(receive)
    if scope["path"] == "/stats":
        await _answer(send, 200, json.dumps({"first": _first, **_counts}).encode())
        return
    if scope["path"] == "/reset":
        _first.clear()
        _counts.update(count=0, bad=0)
        await _answer(send, 200, b"{}")
        return
    now = time.time()
    headers = dict(scope["headers"])
    _counts["count"] += 1
    if not _ok(os.environ[SECRET_ENV].encode(), headers, body):
        _counts["bad"] += 1
        await _answer(send, 401, b'{"error":"bad signature"}')
        return
    _first.setdefault(headers.get(b"x-webhook-id", b"").decode(), now)
    await _answer(send, 200, b"{}")
