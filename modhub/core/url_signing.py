"""Signed, expiring URLs of the files the app serves itself (the disk backend): HMAC-SHA256 over
the key, the expiry and the file name."""

from __future__ import annotations

import base64
import hashlib
import hmac
import time
import urllib.parse


class UrlSigner:
    """HMAC-SHA256 signatures of the app-served download URLs (key, expiry, file name)."""

    def __init__(self, secret: bytes, clock=time.time):
        self._secret = secret
        self._clock = clock

    @classmethod
    def from_encryption_key(cls, encryption_key: str, clock=time.time) -> UrlSigner:
        """A signer keyed from the encryption key, so no new setting is needed."""
        return cls(
            hmac.new(encryption_key.encode(), b"modhub storage url v1", hashlib.sha256).digest(), clock
        )

    def _mac(self, key: str, expires: int, filename: str) -> str:
        msg = f"{key}\n{expires}\n{filename}".encode()
        digest = hmac.new(self._secret, msg, hashlib.sha256).digest()
        return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()

    def query(self, key: str, *, expires_in: int, filename: str | None = None) -> str:
        """The query string of a signed URL valid for expires_in seconds."""
        expires = int(self._clock()) + int(expires_in)
        params = {"e": str(expires), "n": filename or "", "s": self._mac(key, expires, filename or "")}
        return urllib.parse.urlencode(params)

    def verify(self, key: str, *, expires: str, filename: str, signature: str) -> bool:
        """True when the signature matches and the URL has not expired (constant-time compare)."""
        try:
            when = int(expires)
        except (TypeError, ValueError):
            return False
        if when < self._clock():
            return False
        return hmac.compare_digest(self._mac(key, when, filename or ""), signature or "")
