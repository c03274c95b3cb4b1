"""Webhook signatures (the sender's signer and the consumer's `verify_signature`) and the SSRF rule.

A delivery is signed as the service spec says: lower-case hex HMAC-SHA256, keyed with the
subscription's secret (its UTF-8 bytes), over `X-Webhook-Timestamp + "\\n" + raw body`. For 24 h
after a secret rotation `X-Webhook-Signature` carries two comma-separated values, the new
secret's first; a receiver accepts the request when any value matches its secret.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import json
import socket
import time
from urllib.parse import urlsplit

EVENT_KINDS = (
    "resource.published", "resource.updated", "resource.deleted",
    "server.status.online", "server.status.offline",
    "post.published", "post.deleted",
)
TOLERANCE_SECONDS = 300


def sign(secret: str, timestamp: str, body: bytes) -> str:
    """Lower-case hex HMAC-SHA256 of `timestamp + "\\n" + body` keyed with the secret."""
    return hmac.new(secret.encode("utf-8"), timestamp.encode("ascii") + b"\n" + body,
                    hashlib.sha256).hexdigest()


def signature_header(secrets: list[str], timestamp: str, body: bytes) -> str:
    """The X-Webhook-Signature value: one signature per live secret, comma-separated."""
    return ",".join(sign(s, timestamp, body) for s in secrets)


def encode_body(kind: str, data: dict) -> bytes:
    """The raw request body `{"event", "data"}` (compact UTF-8 JSON)."""
    return json.dumps({"event": kind, "data": data}, ensure_ascii=False,
                      separators=(",", ":")).encode("utf-8")


def verify_signature(secret: str, timestamp: str, body: bytes, signature: str,
                     tolerance: int = TOLERANCE_SECONDS, now: float | None = None) -> bool:
    """True when `signature` (the X-Webhook-Signature header) matches and the timestamp is fresh.

    `timestamp` is the X-Webhook-Timestamp header (Unix milliseconds), `body` the raw bytes
    received (before any JSON parsing). The comparison is constant-time; a timestamp more than
    `tolerance` seconds away from `now` (default: the current time) is refused against replays.
    """
    try:
        sent_ms = int(timestamp)
    except (TypeError, ValueError):
        return False
    current = time.time() if now is None else now
    if abs(current - sent_ms / 1000) > tolerance:
        return False
    expected = sign(secret, timestamp, body)
    found = False
    for candidate in (signature or "").split(","):
        found |= hmac.compare_digest(expected, candidate.strip().lower())
    return found


class CallbackRefused(ValueError):
    """A callback URL that may not be called (scheme, host or address)."""


def _blocked(address: str) -> bool:
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if ip.version == 6 and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return (ip.is_private or ip.is_loopback or ip.is_link_local or ip.is_multicast
            or ip.is_reserved or ip.is_unspecified)


def resolve(host: str, port: int) -> list[str]:
    """Every address the host name resolves to."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as exc:
        raise CallbackRefused(f"host {host!r} does not resolve: {exc}") from exc
    return sorted({info[4][0] for info in infos})


def check_callback(url: str, *, allow_private: bool, resolver=None) -> list[str]:
    """Refuse a callback URL by the SSRF rule; return the addresses it resolves to.

    https only, unless `allow_private` (MODHUB_WEBHOOK_ALLOW_PRIVATE) is on, which also allows
    http to loopback and private addresses. Without it any private, loopback, link-local,
    multicast or reserved address is refused. Called at registration and before every attempt,
    because DNS answers change; the sender then connects to a checked address (no rebinding).
    """
    parts = urlsplit(url)
    if parts.scheme not in ("https", "http") or not parts.hostname:
        raise CallbackRefused("callback URL must be an absolute https URL")
    if parts.username or parts.password:
        raise CallbackRefused("callback URL must not carry credentials")
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError as exc:
        raise CallbackRefused(f"callback URL has a bad port: {exc}") from exc
    addresses = (resolver or resolve)(parts.hostname, port)
    blocked = [a for a in addresses if _blocked(a)]
    if parts.scheme == "http" and not (allow_private and len(blocked) == len(addresses)):
        raise CallbackRefused("http callbacks are allowed only to loopback or private addresses "
                              "when MODHUB_WEBHOOK_ALLOW_PRIVATE is on; use https")
    if blocked and not allow_private:
        raise CallbackRefused(f"callback host resolves to a private, loopback or link-local "
                              f"address ({blocked[0]}); refused")
    return addresses
