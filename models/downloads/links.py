"""Temporary download links of download-auth and install-info: `/dl/{fileId}?a=&u=&e=&s=`.

A link is bound to the file, the application that asked for it and (for REGISTERED, MEMBERS
and paid resources) the proxy user: all four values and the expiry are covered by an
HMAC-SHA256 keyed from the encryption key. At download time the link is checked again (the
application still approved, the file still downloadable, the user still entitled), so revoking
any of them stops its links at once.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import urllib.parse
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Protocol

from modhub.core.errors import ApiError

PATH = "/dl/"
TTL_SECONDS = 3600


class LinkSettings(Protocol):
    """The settings a link is made and checked with (modhub.settings.Settings has them): the
    encryption key its HMAC key derives from, and the public base URL of the API it points at."""

    @property
    def encryption_key(self) -> str: ...
    @property
    def base_url(self) -> str: ...


def _secret(encryption_key: str) -> bytes:
    return hmac.new(encryption_key.encode(), b"modhub download link v1", hashlib.sha256).digest()


def _mac(secret: bytes, file_id: int, app_id: int, user_id: int, expires: int) -> str:
    msg = f"{file_id}\n{app_id}\n{user_id}\n{expires}".encode()
    return base64.urlsafe_b64encode(hmac.new(secret, msg, hashlib.sha256).digest()).rstrip(b"=").decode()


@dataclass(frozen=True)
class Link:
    """What a verified link grants: this file, asked by this application, for this user."""

    file_id: int
    app_id: int
    user_id: int | None
    expires: int


def make(
    settings: LinkSettings, *, file_id: int, app_id: int, user_id: int | None, now: float
) -> tuple[str, int]:
    """(URL, expiry in Unix seconds) of a link valid for TTL_SECONDS."""
    expires = int(now) + TTL_SECONDS
    user = user_id or 0
    query = urllib.parse.urlencode(
        {
            "a": app_id,
            "u": user,
            "e": expires,
            "s": _mac(_secret(settings.encryption_key), file_id, app_id, user, expires),
        }
    )
    return f"{settings.base_url}{PATH}{file_id}?{query}", expires


def verify(settings: LinkSettings, *, file_id: int, args: Mapping[str, str], now: float) -> Link:
    """The link's grant, or DOWNLOAD_LINK_INVALID (malformed, tampered) / DOWNLOAD_LINK_EXPIRED."""
    try:
        app_id, user, expires = int(args.get("a", "")), int(args.get("u", "")), int(args.get("e", ""))
    except ValueError as exc:
        raise ApiError("DOWNLOAD_LINK_INVALID") from exc
    want = _mac(_secret(settings.encryption_key), file_id, app_id, user, expires)
    if not hmac.compare_digest(want, args.get("s", "")):
        raise ApiError("DOWNLOAD_LINK_INVALID")
    if expires < now:
        raise ApiError("DOWNLOAD_LINK_EXPIRED")
    return Link(file_id=file_id, app_id=app_id, user_id=user or None, expires=expires)
