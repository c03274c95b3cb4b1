"""File reads and download decisions: the owner check, storage-type rules, the stored bytes."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from models.catalog.queries import get_listed_or_raise
from models.catalog.tables import ResourceFile, ResourcePost
from models.files import records
from models.files.listing import platform_names
from models.files.vos import FileDetail, FileDownloadUrl
from modhub.core.display import Display
from modhub.core.errors import ApiError
from modhub.core.storage import ObjectMissing, Storage


def get_owned_or_raise(session: Session, *, file_id: int, post_id: int | None) -> ResourceFile:
    """A visible file of a listed resource; postId (when given) must be its owner, else 200404."""
    return get_with_post_or_raise(session, file_id=file_id, post_id=post_id)[0]


def get_with_post_or_raise(
    session: Session, *, file_id: int, post_id: int | None
) -> tuple[ResourceFile, ResourcePost]:
    """The file and its listed resource (kept referenced: the identity map holds objects only
    while someone does), with the checks of get_owned_or_raise."""
    f = session.get(ResourceFile, file_id)
    if (
        f is None
        or f.is_delete
        or f.file_status != "NORMAL"
        or (post_id is not None and f.post_id != post_id)
    ):
        raise ApiError(
            "RECORD_NOT_FOUND",
            f"file {file_id} does not exist" + (f" in resource {post_id}" if post_id is not None else ""),
        )
    return f, get_listed_or_raise(session, post_id=f.post_id)


def get_detail(session: Session, *, post_id: int, file_id: int, display: Display) -> FileDetail:
    """FileDetailVO of a file owned by postId."""
    f = get_owned_or_raise(session, file_id=file_id, post_id=post_id)
    return records.file_detail(f, platform_names=platform_names(session, [f]), display=display)


def get_download_url(session: Session, *, file_id: int, post_id: int | None = None) -> FileDownloadUrl:
    """FileDownloadUrlVO of a file with an external link (DIRECT_LINK, CLOUD_DISK); 200321 for
    an on-site file, which has none."""
    f = get_owned_or_raise(session, file_id=file_id, post_id=post_id)
    if f.storage_type == "DIRECT_UPLOAD" or not f.external_url:
        raise ApiError("FILE_HAS_NO_EXTERNAL_LINK")
    return records.download_url(f)


@dataclass(frozen=True)
class Download:
    """What download-file answers: stored bytes to stream, or an external link to redirect to."""

    file_id: int
    file_name: str | None
    post: ResourcePost
    post_id: int | None = None
    key: str | None = None
    size: int = 0
    sha256: str | None = None
    redirect: str | None = None


def resolve_download(session: Session, storage: Storage, *, post_id: int | None, file_id: int) -> Download:
    """The download of a file owned by postId (any listed one when None): DIRECT_UPLOAD streams
    the stored bytes, DIRECT_LINK redirects, CLOUD_DISK is refused (200320); missing bytes are
    200420."""
    f, post = get_with_post_or_raise(session, file_id=file_id, post_id=post_id)
    if f.storage_type == "CLOUD_DISK":
        raise ApiError("CLOUD_DISK_NOT_DOWNLOADABLE")
    if f.storage_type == "DIRECT_LINK":
        if not f.external_url:
            raise ApiError("FILE_CONTENT_MISSING")
        return Download(
            file_id=f.id, file_name=f.file_name, post_id=f.post_id, post=post, redirect=f.external_url
        )
    if not f.object_key:
        raise ApiError("FILE_CONTENT_MISSING")
    try:
        size = storage.size(f.object_key)
    except ObjectMissing as exc:
        raise ApiError("FILE_CONTENT_MISSING") from exc
    return Download(
        file_id=f.id,
        file_name=f.file_name,
        post_id=f.post_id,
        post=post,
        key=f.object_key,
        size=size,
        sha256=f.sha256 or f.object_key,
    )


def check_storage(session: Session, storage: Storage) -> tuple[int, list[str]]:
    """Re-read every stored object a live file record references: (objects checked, problems),
    a problem when the bytes are missing or their size or sha256 differs from the record."""
    rows = session.execute(
        select(ResourceFile.object_key, ResourceFile.file_size, ResourceFile.sha256)
        .distinct()
        .where(
            ResourceFile.storage_type == "DIRECT_UPLOAD",
            ResourceFile.object_key.is_not(None),
            ResourceFile.is_delete.is_(False),
        )
    ).all()
    problems = []
    for key, size, sha256 in rows:
        if key is None:  # the query keeps stored files only
            continue
        digest, got = hashlib.sha256(), 0
        try:
            for chunk in storage.open(key):
                digest.update(chunk)
                got += len(chunk)
        except ObjectMissing:
            problems.append(f"{key}: missing")
            continue
        if size is not None and got != size:
            problems.append(f"{key}: size {got} != recorded {size}")
        if digest.hexdigest() != (sha256 or key):
            problems.append(f"{key}: sha256 {digest.hexdigest()} != recorded {sha256 or key}")
    return len(rows), problems
