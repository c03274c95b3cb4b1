"""Conditional requests on the ETags the server sends (download ETags, tagged JSON reads)."""

from __future__ import annotations

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
