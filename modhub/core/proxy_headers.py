"""The proxy headers, parsed by one set of rules wherever they are read (the gateway for P and T
operations, the downloads for the optional proxy user of a K operation).

`X-Proxy-User-Id` is a user id: 1 to 19 ASCII digits within int64. Anything else (a sign,
spaces, a non-ASCII digit such as "¹" that `str.isdigit()` accepts, a raw byte) is 401 / 200215
PROXY_USER_INVALID. `X-Proxy-Access-Token` is opaque text, looked up by its hash; an empty one
counts as absent.
"""

from __future__ import annotations

import re

from modhub.core.errors import ApiError

USER_ID_HEADER = "X-Proxy-User-Id"
TOKEN_HEADER = "X-Proxy-Access-Token"
INT64_MAX = 2**63 - 1
_USER_ID = re.compile(r"[0-9]{1,19}")  # ASCII digits only: str.isdigit() accepts "¹²"


def user_id_or_none(raw: str | None) -> int | None:
    """The user id a well-formed header names, else None (absent, empty or malformed)."""
    if not raw or not _USER_ID.fullmatch(raw):
        return None
    value = int(raw)
    return value if value <= INT64_MAX else None


def user_id(raw: str | None) -> int | None:
    """The user id of the header; None when absent or empty; 200215 when malformed."""
    if not raw:
        return None
    value = user_id_or_none(raw)
    if value is None:
        raise ApiError("PROXY_USER_INVALID")
    return value
