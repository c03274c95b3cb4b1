"""Verify webhook requests in any framework: give the raw body and the headers.

Checks, in order: the headers are there, the timestamp is within `tolerance` seconds of now, one
of the comma-separated signatures is hex(HMAC-SHA256(secret, timestamp + "\\n" + raw body)) for a
secret held (two during a rotation), and the event id (X-Webhook-Id) was not accepted before
(deliveries are at least once: a repeat is reported, not processed twice).

    receiver = WebhookReceiver(["whsec..."])
    event = receiver.verify(request.headers, request.get_data())   # Flask / WSGI
    event = receiver.verify(request.headers, await request.body())  # Starlette / ASGI
"""

from __future__ import annotations

import hashlib
import hmac
import json
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from modhub_client.errors import WebhookRejected


def webhook_signature(secret: str, timestamp: str, body: bytes) -> str:
    """hex(HMAC-SHA256(secret, timestamp + LF + raw body)), as the server signs."""
    message = timestamp.encode("ascii") + b"\n" + body
    return hmac.new(secret.encode("utf-8"), message, hashlib.sha256).hexdigest()


@dataclass(frozen=True)
class WebhookEvent:
    """A verified delivery: event kind, event id, its `data`, and whether it was seen before."""

    event: str
    event_id: str
    data: Any
    duplicate: bool


class ReplayCache:
    """Event ids seen within `ttl` seconds, in memory (thread-safe). Subclass `seen` to share the
    record between processes (e.g. SET NX with an expiry in Redis)."""

    def __init__(self, ttl: float = 3 * 24 * 3600, size: int = 100_000):
        self.ttl = ttl
        self.size = size
        self._ids: OrderedDict[str, float] = OrderedDict()
        self._lock = threading.Lock()

    def seen(self, event_id: str, now: float) -> bool:
        """Record the id; True when it was already recorded (a replay or a redelivery)."""
        with self._lock:
            while self._ids and (
                len(self._ids) >= self.size or next(iter(self._ids.values())) < now - self.ttl
            ):
                self._ids.popitem(last=False)
            if event_id in self._ids:
                return True
            self._ids[event_id] = now
            return False


def _header(headers: Mapping[str, str] | Iterable[tuple[str, str]], name: str) -> str | None:
    items = headers.items() if isinstance(headers, Mapping) else headers
    lowered = name.lower()
    for key, value in items:
        key_text = key.decode("latin-1") if isinstance(key, bytes) else key
        if key_text.lower() == lowered:
            return value.decode("latin-1") if isinstance(value, bytes) else value
    return None


class WebhookReceiver:
    """Verifies deliveries for the subscription secrets held (the new and the old during a rotation)."""

    def __init__(
        self,
        secrets: Iterable[str],
        *,
        tolerance: float = 300.0,
        replay: ReplayCache | None = None,
        clock: Callable[[], float] = time.time,
    ):
        self.secrets = [s for s in secrets if s]
        if not self.secrets:
            raise ValueError("give at least one webhook secret")
        self.tolerance = tolerance
        self.replay = replay if replay is not None else ReplayCache()
        self.clock = clock

    def verify(self, headers: Mapping[str, str] | Iterable[tuple[str, str]], body: bytes) -> WebhookEvent:
        """The verified event; WebhookRejected (reason) when a check fails. Headers may be any
        mapping (case-insensitive lookup) or ASGI's list of (bytes, bytes) pairs."""
        timestamp = _header(headers, "X-Webhook-Timestamp")
        signatures = _header(headers, "X-Webhook-Signature")
        event_id = _header(headers, "X-Webhook-Id")
        if not timestamp or not signatures or not event_id:
            raise WebhookRejected("missing X-Webhook-Timestamp, X-Webhook-Signature or X-Webhook-Id")
        if not timestamp.isascii() or not timestamp.isdigit():
            raise WebhookRejected("malformed timestamp")
        now = self.clock()
        if abs(now - int(timestamp) / 1000) > self.tolerance:
            raise WebhookRejected("timestamp outside the tolerance window")
        wanted = [webhook_signature(secret, timestamp, body) for secret in self.secrets]
        offered = [s.strip().lower() for s in signatures.split(",") if s.strip()]
        if not any(hmac.compare_digest(w, o) for w in wanted for o in offered):
            raise WebhookRejected("signature mismatch")
        try:
            payload = json.loads(body)
        except ValueError as exc:
            raise WebhookRejected("body is not JSON") from exc
        kind = _header(headers, "X-Webhook-Event") or (
            payload.get("event") if isinstance(payload, dict) else ""
        )
        data = payload.get("data") if isinstance(payload, dict) else None
        return WebhookEvent(str(kind), event_id, data, self.replay.seen(event_id, now))
