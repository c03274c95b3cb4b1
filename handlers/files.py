"""Files, downloads, install configuration and information, startup commands."""

import flask

from models.files import listing
from models.files import service as files
from modhub import blobs
from modhub.web import ok_tagged, platform, session


def list_files(post_id: int, **_):
    """List of FileSummaryVO of a resource (listModFiles, listResourceFiles)."""
    return ok_tagged(listing.list_files(session(), post_id=post_id,
                                           zone=platform().display.time_zone))


def get_file(post_id: int, file_id: int, **_):
    """FileDetailVO of one file (getModFile, getResourceFile)."""
    return ok_tagged(files.get_detail(session(), post_id=post_id, file_id=file_id,
                                      zone=platform().display.time_zone))


def download_file(post_id: int, file_id: int, **_):
    """File content or 302 redirect (no envelope) (downloadModFile, downloadResourceFile)."""
    storage = platform().storage
    d = files.resolve_download(session(), storage, post_id=post_id, file_id=file_id)
    if d.redirect:
        return flask.Response(b"", status=302, headers={"Location": d.redirect},
                              mimetype="application/octet-stream")
    return blobs.stream(storage, key=d.key, size=d.size, filename=d.file_name, sha256=d.sha256)


def get_download_url(file_id: int, post_id: int | None = None, **_):
    """FileDownloadUrlVO of one file (getFileDownloadUrl, getResourceFileDownloadUrl)."""
    return ok_tagged(files.get_download_url(session(), file_id=file_id, post_id=post_id))


def get_batch(body: dict, **_):
    """List of FileSummaryVO (or null) in request order (batchGetFiles, getFileBatch)."""
    return ok_tagged(listing.get_batch(session(), file_ids=body["fileInfoIds"],
                                          zone=platform().display.time_zone))
