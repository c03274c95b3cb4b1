"""The ETags of tagged JSON reads, and conditional requests on every ETag the server sends
(downloads, tagged JSON reads)."""

from __future__ import annotations

import hashlib

from werkzeug.http import parse_etags, unquote_etag


def none_match(header: str | None, etag: str) -> bool:
    """Whether an If-None-Match header matches `etag` (sent as `"x"` or `W/"x"`), by the weak
    comparison RFC 9110 13.1.2 prescribes for If-None-Match: `W/"x"` and `"x"` are the same tag;
    `*` matches any current representation; a list matches when one of its tags does."""
    if not header:
        return False
    tags = parse_etags(header)
    opaque, _weak = unquote_etag(etag)
    return tags.star_tag or tags.contains_weak(opaque)


def etag_of(data: bytes) -> str:
    """The weak ETag of these bytes (the ETag header of a tagged read and of the contract)."""
    # SHA-256 cut to 128 bits: twice as fast as BLAKE2b where the CPU has SHA instructions
    return f'W/"{hashlib.sha256(data).hexdigest()[:32]}"'


_KEPT_TAGS: dict[bytes, str] = {}
KEPT_TAGS_MAX = 4096


def etag_of_kept(data: bytes) -> str:
    """etag_of() of a kept record's bytes, remembered by them: each hit of a record hands over the
    same bytes object, whose hash Python keeps, so the lookup costs no hashing of the record
    (SHA-256 of a detail's 1.2 kB did). Up to KEPT_TAGS_MAX records, then started afresh."""
    tag = _KEPT_TAGS.get(data)
    if tag is None:
        if len(_KEPT_TAGS) >= KEPT_TAGS_MAX:
            _KEPT_TAGS.clear()
        tag = _KEPT_TAGS[data] = etag_of(data)
    return tag
