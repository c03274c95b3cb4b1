"""Request signing (the contract's "Signed requests") and the proxy-user headers."""

from __future__ import annotations

import base64
import hashlib
import hmac
import threading
import time
from dataclasses import dataclass


def string_to_sign(method: str, path: str, timestamp: str) -> str:
    """METHOD + LF + PATH + LF + TIMESTAMP: the path exactly as sent, without the query string."""
    return f"{method.upper()}\n{path}\n{timestamp}"


def sign(secret_key: str, method: str, path: str, timestamp: str) -> str:
    """Base64 of HMAC-SHA256 keyed with the secret key over the string-to-sign."""
    digest = hmac.new(
        secret_key.encode("utf-8"), string_to_sign(method, path, timestamp).encode("utf-8"), hashlib.sha256
    ).digest()
    return base64.b64encode(digest).decode("ascii")


class MonotonicClock:
    """13-digit millisecond timestamps, strictly increasing in this process.

    The server accepts a signed write once per (timestamp, signature): two writes to one path in the
    same millisecond would look like a replay, so each call gets at least the previous value + 1.
    """

    def __init__(self) -> None:
        self._last = 0
        self._lock = threading.Lock()

    def __call__(self) -> str:
        with self._lock:
            self._last = max(self._last + 1, int(time.time() * 1000))
            return str(self._last)


@dataclass(frozen=True)
class Credentials:
    """An application's API key and secret key."""

    api_key: str
    secret_key: str

    def headers(self, method: str, path: str, timestamp: str) -> dict[str, str]:
        """X-API-Key, X-Timestamp and X-Signature for one request."""
        return {
            "X-API-Key": self.api_key,
            "X-Timestamp": timestamp,
            "X-Signature": sign(self.secret_key, method, path, timestamp),
        }


@dataclass(frozen=True)
class ProxyUser:
    """Acting for a platform user: `user_id` (P operations) and its `access_token` (T operations).

    When a token is sent the server takes the user from the token, whatever user id is sent.
    """

    user_id: int | None = None
    access_token: str | None = None

    def headers(self) -> dict[str, str]:
        """X-Proxy-User-Id and X-Proxy-Access-Token, for those that are set."""
        out: dict[str, str] = {}
        if self.user_id is not None:
            out["X-Proxy-User-Id"] = str(int(self.user_id))
        if self.access_token:
            out["X-Proxy-Access-Token"] = self.access_token
        return out
