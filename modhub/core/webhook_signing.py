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
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

EVENT_KINDS = (
    "resource.published",
    "resource.updated",
    "resource.deleted",
    "server.status.online",
    "server.status.offline",
    "post.published",
    "post.deleted",
)
TOLERANCE_SECONDS = 300


def sign(secret: str, timestamp: str, body: bytes) -> str:
    """Lower-case hex HMAC-SHA256 of `timestamp + "\\n" + body` keyed with the secret."""
    return hmac.new(
        secret.encode("utf-8"), timestamp.encode("ascii") + b"\n" + body, hashlib.sha256
    ).hexdigest()


def signature_header(secrets: list[str], timestamp: str, body: bytes) -> str:
    """The X-Webhook-Signature value: one signature per live secret, comma-separated."""
    return ",".join(sign(s, timestamp, body) for s in secrets)


def encode_body(kind: str, data: dict[str, Any]) -> bytes:
    """The raw request body `{"event", "data"}` (compact UTF-8 JSON)."""
    return json.dumps({"event": kind, "data": data}, ensure_ascii=False, separators=(",", ":")).encode(
        "utf-8"
    )


def verify_signature(
    secret: str,
    timestamp: str,
    body: bytes,
    signature: str,
    tolerance: int = TOLERANCE_SECONDS,
    now: float | None = None,
) -> bool:
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


# IANA special-purpose registries beyond what `ipaddress` flags as not global: translation and
# tunnelling prefixes that embed an IPv4 address (any of them can reach a private host through a
# relay), and the ranges `is_global` still counts as global on Python 3.11.
_SPECIAL = tuple(
    ipaddress.ip_network(n)
    for n in (
        "100.64.0.0/10",  # shared address space (RFC 6598), cloud metadata lives there
        "192.0.0.0/24",  # IETF protocol assignments
        "198.18.0.0/15",  # benchmarking
        "192.0.2.0/24",
        "198.51.100.0/24",
        "203.0.113.0/24",  # documentation
        "240.0.0.0/4",
        "255.255.255.255/32",
        "2002::/16",  # 6to4
        "2001::/32",  # Teredo
        "2001:db8::/32",
        "3fff::/20",  # documentation
        "64:ff9b::/96",
        "64:ff9b:1::/48",  # NAT64
        "100::/64",  # discard-only
        "2001:2::/48",  # benchmarking
        "fc00::/7",
        "fe80::/10",
        "fec0::/10",
        "::/128",
        "::1/128",
        "::ffff:0:0/96",
        "::/96",  # unspecified, loopback, mapped, compatible
    )
)


def _blocked(address: str) -> bool:
    """True for every address that is not plainly global unicast (any special-purpose range)."""
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if any(ip in net for net in _SPECIAL if net.version == ip.version):
        return True
    return not ip.is_global or ip.is_multicast


def resolve(host: str, port: int) -> list[str]:
    """Every address the host name resolves to."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as exc:
        raise CallbackRefused(f"host {host!r} does not resolve: {exc}") from exc
    return sorted({str(info[4][0]) for info in infos})  # the address (a str in either family)


def check_callback(
    url: str, *, allow_private: bool, resolver: Callable[[str, int], list[str]] | None = None
) -> list[str]:
    """Refuse a callback URL by the SSRF rule; return the addresses it resolves to.

    https only, unless `allow_private` (MODHUB_WEBHOOK_ALLOW_PRIVATE) is on, which also allows
    http to loopback and private addresses. Without it any address that is not plainly global
    unicast is refused: private, loopback, link-local, multicast, reserved and every IANA
    special-purpose range (shared 100.64/10, benchmarking, documentation, 6to4, Teredo, NAT64,
    IPv4-mapped). Called at registration and before every attempt,
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
        raise CallbackRefused(
            "http callbacks are allowed only to loopback or private addresses "
            "when MODHUB_WEBHOOK_ALLOW_PRIVATE is on; use https"
        )
    if blocked and not allow_private:
        raise CallbackRefused(
            f"callback host resolves to a private or special-purpose address ({blocked[0]}); refused"
        )
    return addresses
