"""Display images served by the server itself when no CDN is configured (the embedded default):
`GET /media/<key>` answers a small generated PNG for an image key (covers/78.jpg,
avatars/24.png, icons/forge.png, ...), so the demo's covers, icons and avatars load in a browser.

Records build their display URLs from MODHUB_CDN_BASE_URL, which defaults to
MODHUB_BASE_URL + MEDIA_PATH (modhub.settings.finalize). Each key always gets the same image: a
two-tone tile whose colours come from the key's hash; its size follows the key's folder.
"""

from __future__ import annotations

import hashlib
import re
import struct
import zlib
from functools import lru_cache

import flask

MEDIA_PATH = "/media"
KEY = re.compile(r"[a-z][a-z0-9_-]{0,31}/[A-Za-z0-9][A-Za-z0-9._-]{0,127}\.(?:jpe?g|png|gif|webp)")
SIZES = {"covers": (320, 180), "shots": (320, 180), "avatars": (64, 64), "icons": (48, 48)}

bp = flask.Blueprint("media", __name__)


def _chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


@lru_cache(maxsize=512)
def placeholder_png(key: str) -> bytes:
    """The PNG of an image key: 8-bit RGB, a diagonal split of two colours from the key's hash."""
    width, height = SIZES.get(key.split("/", 1)[0], (96, 96))
    digest = hashlib.sha256(key.encode()).digest()
    first, second = digest[0:3], bytes(255 - b // 2 for b in digest[3:6])
    rows = bytearray()
    for y in range(height):
        split = width - (y * width) // height
        rows += b"\x00" + first * split + second * (width - split)
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + _chunk(b"IHDR", header)
        + _chunk(b"IDAT", zlib.compress(bytes(rows), 6))
        + _chunk(b"IEND", b"")
    )


@bp.route(MEDIA_PATH + "/<path:key>", methods=["GET", "HEAD"])
def media(key: str):
    """A display image of the catalogue (image/png), cacheable for a day; 404 for other paths."""
    if not KEY.fullmatch(key):
        return flask.Response("not found\n", status=404, mimetype="text/plain")
    body = placeholder_png(key)
    etag = '"' + hashlib.sha256(body).hexdigest()[:32] + '"'
    headers = {"ETag": etag, "Cache-Control": "public, max-age=86400", "X-Content-Type-Options": "nosniff"}
    if etag in flask.request.headers.get("If-None-Match", ""):
        return flask.Response(status=304, headers=headers)
    if flask.request.method == "HEAD":
        body = b""
    return flask.Response(body, headers=headers, mimetype="image/png")
