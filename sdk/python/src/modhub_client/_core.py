"""What the sync and async clients share: building signed requests, reading envelopes, the retry
policy and the ETag cache. Nothing here does I/O."""

from __future__ import annotations

import email.utils
import json
import time
import uuid
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urljoin

import httpx

from modhub_client import __version__
from modhub_client.errors import ApiError, api_error
from modhub_client.signing import Credentials, MonotonicClock, ProxyUser

IDEMPOTENT_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "PUT", "DELETE"})
RETRY_STATUSES = frozenset({429, 503})
Params = dict[str, Any]


@dataclass
class RetryPolicy:
    """Retries on 429 and 503: `attempts` in all, exponential backoff from `backoff` seconds,
    `Retry-After` honoured; an answer asking to wait longer than `max_wait` is raised at once."""

    attempts: int = 3
    backoff: float = 0.5
    max_wait: float = 30.0

    def delay(self, attempt: int, retry_after: float | None) -> float | None:
        """Seconds to wait before attempt `attempt + 1`, or None to give up."""
        if attempt + 1 >= self.attempts:
            return None
        wait = max(self.backoff * (2**attempt), retry_after or 0.0)
        return None if wait > self.max_wait else wait


@dataclass
class EtagCache:
    """Answers of conditional reads kept by URL (and proxy user): sent back as If-None-Match,
    reused on 304. Bounded by `size` entries (oldest dropped first)."""

    size: int = 512
    entries: dict[tuple[str, str], tuple[str, Any]] = field(default_factory=dict)

    def lookup(self, key: tuple[str, str]) -> tuple[str, Any] | None:
        """The (etag, data) kept for a request, if any."""
        return self.entries.get(key)

    def store(self, key: tuple[str, str], etag: str, data: Any) -> None:
        """Keep an answer; drops the oldest entry when full."""
        self.entries.pop(key, None)
        if len(self.entries) >= self.size:
            self.entries.pop(next(iter(self.entries)))
        self.entries[key] = (etag, data)


def retry_after_seconds(value: str | None) -> float | None:
    """Retry-After as seconds (it may be a number of seconds or an HTTP date)."""
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        parsed = email.utils.parsedate_to_datetime(value)
        return max(0.0, parsed.timestamp() - time.time()) if parsed else None


@dataclass
class Call:
    """One API request before signing: method, path (exactly as sent), query, JSON body, headers."""

    method: str
    path: str
    params: Params | None = None
    json: Any = None
    headers: dict[str, str] = field(default_factory=dict)
    signed: bool = True
    safe: bool = False  # a read-only POST (batch reads): retried like a GET

    @property
    def retryable(self) -> bool:
        """Idempotent methods, read-only POSTs and writes that carry an Idempotency-Key."""
        return self.method in IDEMPOTENT_METHODS or self.safe or "Idempotency-Key" in self.headers


def new_idempotency_key() -> str:
    """A fresh Idempotency-Key (the contract allows 1 to 64 of [A-Za-z0-9._:-])."""
    return uuid.uuid4().hex


class Core:
    """Configuration and pure request/answer logic of a client."""

    def __init__(
        self,
        base_url: str,
        api_key: str | None = None,
        secret_key: str | None = None,
        *,
        proxy_user: ProxyUser | None = None,
        retry: RetryPolicy | None = None,
        etag_cache: bool | EtagCache = False,
        user_agent: str | None = None,
    ):
        self.base_url = base_url.rstrip("/")
        self.credentials = Credentials(api_key, secret_key) if api_key and secret_key else None
        self.proxy_user = proxy_user
        self.retry = retry or RetryPolicy()
        self.cache = etag_cache if isinstance(etag_cache, EtagCache) else EtagCache() if etag_cache else None
        self.user_agent = user_agent or f"modhub-client/{__version__}"
        self.clock = MonotonicClock()

    def absolute(self, url: str) -> str:
        """A URL the server gave (possibly relative, e.g. /dl/... links) made absolute."""
        return urljoin(self.base_url + "/", url)

    def build(
        self, client: httpx.Client | httpx.AsyncClient, call: Call, proxy_user: ProxyUser | None = None
    ) -> httpx.Request:
        """The httpx request, signed now (a retry is signed again with a new timestamp)."""
        headers = {"User-Agent": self.user_agent, "Accept": "application/json", **call.headers}
        user = proxy_user or self.proxy_user
        if user is not None and call.signed:
            headers.update(user.headers())
        key = self.cache_key(call, user)
        if key is not None and self.cache is not None and (hit := self.cache.lookup(key)):
            headers["If-None-Match"] = hit[0]
        request = client.build_request(
            call.method, self.base_url + call.path, params=call.params, json=call.json, headers=headers
        )
        if call.signed:
            if self.credentials is None:
                raise ValueError("this operation is signed: give the client api_key and secret_key")
            # the path exactly as it goes on the wire (percent-encoded by httpx), without the query
            sent = request.url.raw_path.split(b"?", 1)[0].decode("ascii")
            request.headers.update(self.credentials.headers(call.method, sent, self.clock()))
        return request

    def cache_key(self, call: Call, user: ProxyUser | None) -> tuple[str, str] | None:
        """Cache key of a conditional read: the URL with its query and the acting user."""
        if self.cache is None or call.method != "GET":
            return None
        query = json.dumps(call.params or {}, sort_keys=True, default=str)
        who = f"{user.user_id}:{bool(user.access_token)}" if user else ""
        return (call.path + "?" + query, who)

    def delay(self, call: Call, attempt: int, response: httpx.Response) -> float | None:
        """Seconds to wait before retrying this answer, or None when it is final."""
        if response.status_code not in RETRY_STATUSES or not call.retryable:
            return None
        return self.retry.delay(attempt, retry_after_seconds(response.headers.get("Retry-After")))

    def result(self, call: Call, response: httpx.Response, proxy_user: ProxyUser | None) -> Any:
        """The envelope's data, or the ApiError the answer carries (raised)."""
        key = self.cache_key(call, proxy_user or self.proxy_user)
        if response.status_code == 304 and key is not None and self.cache is not None:
            hit = self.cache.lookup(key)
            if hit is not None:
                return hit[1]
        body = envelope(response)
        if response.status_code >= 400 or not isinstance(body, dict) or body.get("code") != 0:
            raise error_of(response, body)
        data = body.get("data")
        etag = response.headers.get("ETag")
        if key is not None and self.cache is not None and etag:
            self.cache.store(key, etag, data)
        return data


def envelope(response: httpx.Response) -> Any:
    """The JSON body, or its text when it is not JSON."""
    try:
        return response.json()
    except ValueError:
        return response.text


def error_of(response: httpx.Response, body: Any) -> ApiError:
    """The typed exception of an error answer."""
    return api_error(
        response.status_code,
        body,
        response.headers.get("X-Request-Id"),
        retry_after_seconds(response.headers.get("Retry-After")),
    )
