"""Typed exceptions: every failure the server answers in its envelope, plus the client's own."""

from __future__ import annotations

from typing import Any


class ModhubError(Exception):
    """Base class of every exception this package raises."""


class ApiError(ModhubError):
    """An error envelope: `code` (the contract's error catalog), `msg`, `trace_id`, HTTP `status`."""

    def __init__(
        self,
        status: int,
        code: int,
        msg: str,
        trace_id: str | None,
        retry_after: float | None = None,
        body: Any = None,
    ):
        super().__init__(f"HTTP {status} / {code}: {msg} (traceId {trace_id})")
        self.status = status
        self.code = code
        self.msg = msg
        self.trace_id = trace_id
        self.retry_after = retry_after
        self.body = body


class AuthError(ApiError):
    """401: signature, timestamp, key or proxy token problems (2002xx)."""


class PermissionDenied(ApiError):
    """403: application status, permission, scope, IP or entitlement."""


class NotFound(ApiError):
    """404: no such path or record."""


class Conflict(ApiError):
    """409: the request conflicts with the current data."""


class InvalidRequest(ApiError):
    """400, 413, 415, 431: the request itself is wrong."""


class RateLimited(ApiError):
    """429: a quota (200101 minute, 200102 day) or a cool-down; `retry_after` in seconds."""


class ServerError(ApiError):
    """5xx: the server failed or a backing service is down (200503)."""


class VerificationError(ModhubError):
    """Downloaded bytes or a signed script do not match what the server published."""


class HashMismatch(VerificationError):
    """A file's digest differs from the published one."""

    def __init__(self, path: str, algorithm: str, expected: str, actual: str):
        super().__init__(f"{path}: {algorithm} is {actual}, expected {expected}")
        self.path = path
        self.algorithm = algorithm
        self.expected = expected
        self.actual = actual


class SignatureInvalid(VerificationError):
    """An install script's signature does not verify (unknown key id or wrong signature)."""


class WebhookRejected(ModhubError):
    """A webhook request failed verification; `reason` tells which check."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


_BY_STATUS: dict[int, type[ApiError]] = {
    400: InvalidRequest,
    401: AuthError,
    403: PermissionDenied,
    404: NotFound,
    405: InvalidRequest,
    409: Conflict,
    413: InvalidRequest,
    415: InvalidRequest,
    429: RateLimited,
    431: InvalidRequest,
}


def api_error(status: int, body: Any, headers_trace_id: str | None, retry_after: float | None) -> ApiError:
    """The exception for an error answer (an envelope, or anything else a proxy may send)."""
    if isinstance(body, dict) and isinstance(body.get("code"), int):
        code, msg = int(body["code"]), str(body.get("msg") or "")
        trace = body.get("traceId") or headers_trace_id
    else:
        code, msg, trace = 0, f"non-envelope answer: {str(body)[:200]}", headers_trace_id
    kind = _BY_STATUS.get(status, ServerError if status >= 500 else ApiError)
    return kind(status, code, msg, trace, retry_after, body)
