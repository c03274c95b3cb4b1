"""Request signing for the tests, with the standard library and requests only: the spec's
signature written independently of modhub.request_signing, credentials, strictly increasing timestamps
and a signed POST over real HTTP. Client processes import this module, not the app, so they start
in a fraction of a second."""

from __future__ import annotations

import base64
import hashlib
import hmac
import threading
import time
from dataclasses import dataclass
from urllib.parse import urlsplit

import requests


def sign(secret: str, method: str, path: str, timestamp: str) -> str:
    """The spec's signature, written here independently of modhub.request_signing."""
    message = "\n".join([method.upper(), path, timestamp]).encode("utf-8")
    return base64.b64encode(hmac.new(secret.encode("utf-8"), message, hashlib.sha256).digest()).decode()


_last_ms = 0
_ms_lock = threading.Lock()
_lane = (0, 1)


def use_timestamp_lane(index: int, lanes: int) -> None:
    """Give this process timestamps with `ms % lanes == index`, so client processes that sign the
    same write concurrently never present the same (timestamp, signature)."""
    global _lane
    _lane = (index, lanes)


def now_ms() -> str:
    """The current time as a 13-digit millisecond timestamp, strictly increasing in this process.

    A signed write is accepted once per (timestamp, signature), so two writes to one path in the
    same millisecond would look like a replay; a real client does the same (a fresh timestamp).
    """
    global _last_ms
    with _ms_lock:
        index, lanes = _lane
        ms = max(_last_ms + 1, int(time.time() * 1000))
        _last_ms = ms + (index - ms) % lanes
        return str(_last_ms)


@dataclass
class Creds:
    """An application's credentials as the CLI prints them."""

    app_id: int
    api_key: str
    secret_key: str

    def headers(self, method: str, url: str, timestamp: str | None = None, **extra) -> dict:
        """Signature headers for a request (the query string is not signed)."""
        ts = timestamp or now_ms()
        path = urlsplit(url).path
        return {
            "X-API-Key": self.api_key,
            "X-Timestamp": ts,
            "X-Signature": sign(self.secret_key, method, path, ts),
            **extra,
        }


def signed_post(base: str, creds: Creds, path: str, headers: dict, body: dict) -> requests.Response:
    """One signed POST over real HTTP."""
    return requests.post(
        base + path, json=body, timeout=60, headers={**creds.headers("POST", path), **headers}
    )
