"""Serving stored bytes over HTTP: single-range requests, ETag = sha256, the disk backend's
HMAC-signed, expiring `/storage/<key>` URLs and the temporary links of download-auth
`/dl/<fileId>` (outside the contract; refusals of /dl use the envelope)."""

from __future__ import annotations

import dataclasses
import re

import flask

from models.downloads import downloads, links
from modhub import metrics
from modhub.addresses import client_address
from modhub.core.errors import ApiError
from modhub.core.storage import BLOB_PATH, ObjectMissing, content_disposition
from modhub.envelope import error_bytes
from modhub.etags import none_match
from modhub.web import platform as web_platform
from modhub.web import remote_addr, request_headers, request_method, respond, respond_stream, session

bp = flask.Blueprint("blobs", __name__)
RANGE_RE = re.compile(r"^bytes=(\d*)-(\d*)$")
UNSATISFIABLE = "unsatisfiable"


def parse_range(header: str | None, size: int):
    """(start, end) of a single byte range, None to send the whole object, or UNSATISFIABLE.

    A malformed or multi-range header is ignored (the whole object is sent, as RFC 9110 allows).
    """
    if not header:
        return None
    m = RANGE_RE.match(header.strip())
    if not m or (not m.group(1) and not m.group(2)):
        return None
    first, last = m.group(1), m.group(2)
    if not first:  # suffix range: the last N bytes
        n = int(last)
        if n == 0 or size == 0:
            return UNSATISFIABLE
        return max(0, size - n), size - 1
    start = int(first)
    end = size - 1 if not last else min(int(last), size - 1)
    if not last or int(last) >= start:
        return (start, end) if start < size else UNSATISFIABLE
    return None  # last < first: syntactically invalid, ignored


def stream(storage, *, key: str, size: int, filename: str | None, sha256: str):
    """The object as a streamed response honouring Range and If-Range (206, 416)."""
    etag = f'"{sha256}"'
    request = request_headers()
    wanted = request.get("Range")
    if_range = request.get("If-Range")
    if wanted and if_range is not None and if_range.strip() != etag:
        # the client's copy is stale: send the whole current object (If-Range compares strongly,
        # RFC 9110 13.1.5: a weak tag never matches)
        wanted = None
    rng = parse_range(wanted, size)
    headers = {"ETag": etag, "Accept-Ranges": "bytes", "Cache-Control": "private, no-transform"}
    if filename:
        headers["Content-Disposition"] = content_disposition(filename)
    if rng == UNSATISFIABLE:
        headers["Content-Range"] = f"bytes */{size}"
        return respond(b"", status=416, headers=headers, mimetype="application/octet-stream")
    if none_match(request.get("If-None-Match"), etag) and rng is None:
        return respond(status=304, headers=headers, mimetype="application/octet-stream")
    start, end, status = (0, size - 1, 200) if rng is None else (*rng, 206)
    if status == 206:
        headers["Content-Range"] = f"bytes {start}-{end}/{size}"
    headers["Content-Length"] = str(max(0, end - start + 1))
    body = storage.open(key, start, end) if size else iter(())
    if request_method() == "HEAD":
        body = iter(())
    elif size:
        metrics.DOWNLOAD_BYTES.inc(max(0, end - start + 1))
    return respond_stream(body, status=status, headers=headers, mimetype="application/octet-stream")


@bp.route(BLOB_PATH + "<key>", methods=["GET", "HEAD"])
def signed_blob(key: str):
    """Serve a disk-stored object to the holder of a valid, unexpired signed URL."""
    storage = flask.current_app.extensions["modhub"].storage
    signer = getattr(storage, "signer", None)
    args = flask.request.args
    if signer is None or not signer.verify(
        key, expires=args.get("e"), filename=args.get("n", ""), signature=args.get("s")
    ):
        return flask.Response("invalid or expired download link\n", status=403, mimetype="text/plain")
    try:
        size = storage.size(key)
    except ObjectMissing:
        return flask.Response("not found\n", status=404, mimetype="text/plain")
    return stream(storage, key=key, size=size, filename=args.get("n") or None, sha256=key)


def _address() -> str:
    settings = web_platform().settings
    return client_address(
        remote_addr(),
        request_headers().get("X-Forwarded-For"),
        settings.trusted_networks,
    )


def _new_download() -> bool:
    """A GET of the whole file or of its start; a HEAD, a revalidation (If-None-Match) or a
    resumed range is not a new download."""
    headers = request_headers()
    if request_method() != "GET" or "If-None-Match" in headers:
        return False
    wanted = (headers.get("Range") or "").replace(" ", "")
    return not wanted or wanted.startswith("bytes=0-")


def serve(d, *, user_id: int | None):
    """A resolved download, counted once per client per 10 minutes (one Redis round trip), then
    streamed, or redirected (DIRECT_LINK's external link, S3's presigned URL)."""
    platform = web_platform()
    if _new_download():
        downloads.count(
            platform.download_counter,
            post_id=d.post_id,
            file_id=d.file_id,
            user_id=user_id,
            address=_address(),
            now=platform.clock().timestamp(),
        )
    if d.redirect:
        return respond(b"", status=302, headers={"Location": d.redirect}, mimetype="application/octet-stream")
    return stream(platform.storage, key=d.key, size=d.size, filename=d.file_name, sha256=d.sha256)


@bp.route(links.PATH + "<int:file_id>", methods=["GET", "HEAD"])
def temporary_link(file_id: int):
    """Serve the file of a download-auth link to its holder (see models/downloads/links.py)."""

    platform = flask.current_app.extensions["modhub"]
    try:
        d, link = downloads.link_download(
            session(),
            platform.storage,
            settings=platform.settings,
            file_id=file_id,
            args=flask.request.args,
            api_key=flask.request.headers.get("X-API-Key"),
            now=platform.clock().timestamp(),
        )
    except ApiError as exc:
        return flask.Response(error_bytes(exc), status=exc.status, mimetype="application/json")
    if not d.redirect and getattr(platform.storage, "signer", None) is None:
        # S3: hand over to the store's presigned URL, valid until the link expires
        ttl = max(1, int(link.expires - platform.clock().timestamp()))
        d = dataclasses.replace(d, redirect=platform.storage.url(d.key, expires_in=ttl, filename=d.file_name))
    return serve(d, user_id=link.user_id)
