"""The application signature: string-to-sign, HMAC-SHA256 signing and constant-time check."""

from __future__ import annotations

import base64
import hmac


def string_to_sign(method: str, path: str, timestamp: str) -> str:
    """METHOD, line feed, PATH (no host, no query), line feed, TIMESTAMP; no trailing line feed."""
    return f"{method.upper()}\n{path}\n{timestamp}"


def sign(secret: str, method: str, path: str, timestamp: str) -> str:
    """Base64 of HMAC-SHA256 over the string-to-sign with the secret key."""
    mac = hmac.digest(secret.encode(), string_to_sign(method, path, timestamp).encode(), "sha256")
    return base64.b64encode(mac).decode()


def signature_matches(secret: str, method: str, path: str, timestamp: str, given: str) -> bool:
    """Constant-time comparison of a presented signature with the expected one."""
    return hmac.compare_digest(sign(secret, method, path, timestamp).encode(), given.encode())
