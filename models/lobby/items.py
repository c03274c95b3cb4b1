"""The resource items of a lobby post: each item's row (a community resource, an uploaded file or
a described one), its install path's safety, and its presigned download URL."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from models.files.service import get_owned_or_raise as get_community_file
from models.lobby.tables import LISTED, UPLOADED, LobbyPost, LobbyResource
from modhub.core.display import Display, parse_local_time
from modhub.core.errors import ApiError
from modhub.core.storage import Storage

URL_TTL = dt.timedelta(hours=24)  # presigned URLs handed out (S3 SigV4 allows up to 7 days)
URL_RENEW_BEFORE = dt.timedelta(hours=1)  # the manifest renews URLs with less left than this
_DRIVE = re.compile(r"^[A-Za-z]:")


def unsafe_path_reason(path: object) -> str | None:
    """Why a clientInstallPath is refused (None when it is a safe relative path)."""
    if not isinstance(path, str) or not path.strip():
        return "clientInstallPath is empty"
    if len(path) > 512:
        return "clientInstallPath is longer than 512 characters"
    if any(ord(c) < 32 or c == "\x7f" for c in path):
        return "clientInstallPath contains control characters"
    if "\\" in path:
        return "clientInstallPath must use '/' separators (no backslash)"
    if path.startswith("/") or _DRIVE.match(path) or path.startswith("~"):
        return "clientInstallPath must be relative to the game root, not absolute"
    if ".." in path.split("/"):
        return "clientInstallPath must not contain '..' segments"
    return None


def presign(row: LobbyResource, storage: Storage, *, now: dt.datetime) -> None:
    """Give a row with stored bytes a fresh download URL valid for URL_TTL."""
    if row.object_key is None:
        raise ValueError(f"lobby resource {row.id} has no stored bytes to sign a URL for")
    row.download_url = storage.url(
        row.object_key, expires_in=int(URL_TTL.total_seconds()), filename=row.name or None
    )
    row.download_url_expires_at = now + URL_TTL


def replace_resources(
    session: Session,
    storage: Storage,
    *,
    lobby: LobbyPost,
    user_id: int,
    items: Sequence[Mapping[str, Any]],
    display: Display,
    now: dt.datetime,
) -> None:
    """The post's resource list becomes `items`: listed COMMUNITY/BUILTIN rows are replaced,
    uploaded rows are unlisted (kept: a later update may list them again without re-upload)."""
    session.execute(
        delete(LobbyResource).where(LobbyResource.post_id == lobby.id, LobbyResource.state == LISTED)
    )
    for row in session.scalars(
        select(LobbyResource).where(LobbyResource.post_id == lobby.id, LobbyResource.listed.is_(True))
    ):
        row.listed = False
    session.flush()
    for index, item in enumerate(items):
        reason = unsafe_path_reason(item.get("clientInstallPath") or "")
        if item.get("clientInstallPath") and reason:
            raise ApiError("LOBBY_INSTALL_PATH_UNSAFE", f"resources[{index}]: {reason}")
        row = _item_row(session, lobby=lobby, user_id=user_id, item=item, index=index, display=display)
        _describe(row, item)
        row.listed, row.post_id, row.update_time = True, lobby.id, now
        if row.object_key and (
            row.download_url_expires_at is None or row.download_url_expires_at - now < URL_RENEW_BEFORE
        ):
            presign(row, storage, now=now)
        session.flush()


def _describe(row: LobbyResource, item: Mapping[str, Any]) -> None:
    row.resource_type = item.get("resourceType") or row.resource_type
    row.name = item.get("name") or row.name
    row.version = item.get("version")
    row.environment_side = item.get("environmentSide") or "BOTH"
    row.client_install_path = item.get("clientInstallPath") or row.client_install_path
    row.extra_json = item.get("extraJson")


def _item_row(
    session: Session,
    *,
    lobby: LobbyPost,
    user_id: int,
    item: Mapping[str, Any],
    index: int,
    display: Display,
) -> LobbyResource:
    source = item["source"]
    if source == "COMMUNITY":
        return _community_row(session, user_id=user_id, item=item, index=index)
    if not item.get("sha256"):
        raise ApiError("PARAMETER_INVALID", f"resources[{index}].sha256 is required for {source}")
    if source == "BUILTIN":
        if item.get("sizeBytes") is None:
            raise ApiError("PARAMETER_INVALID", f"resources[{index}].sizeBytes is required for BUILTIN")
        row = LobbyResource(
            user_id=user_id,
            source="BUILTIN",
            state=LISTED,
            sha256=item["sha256"],
            size_bytes=item["sizeBytes"],
            download_url=item.get("downloadUrl"),
            download_url_expires_at=_parse_time(item.get("downloadUrlExpiresAt"), display, index),
        )
        session.add(row)
        return row
    return _uploaded_row(session, lobby=lobby, user_id=user_id, sha256=item["sha256"], index=index)


def _community_row(session: Session, *, user_id: int, item: Mapping[str, Any], index: int) -> LobbyResource:
    post_id, file_id = item.get("communityPostId"), item.get("communityFileId")
    if not post_id or not file_id:
        raise ApiError(
            "LOBBY_COMMUNITY_FILE_INVALID",
            f"resources[{index}]: communityPostId and communityFileId are both required",
        )
    try:
        f = get_community_file(session, file_id=file_id, post_id=post_id)
    except ApiError as exc:
        raise ApiError("LOBBY_COMMUNITY_FILE_INVALID", f"resources[{index}]: {exc.message}") from exc
    stored = f.storage_type == "DIRECT_UPLOAD" and f.object_key
    row = LobbyResource(
        user_id=user_id,
        source="COMMUNITY",
        state=LISTED,
        sha256=f.sha256,
        size_bytes=f.file_size,
        object_key=f.object_key if stored else None,
        name=f.file_name,
        community_post_id=post_id,
        community_file_id=file_id,
    )
    session.add(row)
    return row


def _uploaded_row(
    session: Session, *, lobby: LobbyPost, user_id: int, sha256: str, index: int
) -> LobbyResource:
    """The user's uploaded, not yet listed row of this content (staged or of this post); a
    second item with the same content gets a copy of an already listed one."""
    mine = select(LobbyResource).where(
        LobbyResource.user_id == user_id,
        LobbyResource.sha256 == sha256,
        LobbyResource.state == UPLOADED,
        LobbyResource.is_delete.is_(False),
        (LobbyResource.post_id == lobby.id) | LobbyResource.post_id.is_(None),
    )
    row = session.scalars(
        mine.where(LobbyResource.listed.is_(False))
        .order_by(LobbyResource.post_id.is_(None), LobbyResource.id)
        .limit(1)
    ).first()
    if row is not None:
        return row
    listed = session.scalars(mine.where(LobbyResource.listed.is_(True)).limit(1)).first()
    if listed is None:
        raise ApiError(
            "LOBBY_UPLOAD_NOT_FOUND",
            f"resources[{index}]: no uploaded content with sha256 {sha256} "
            "(reserve-batch and upload it first)",
        )
    row = LobbyResource(
        user_id=user_id,
        source="USER_UPLOAD",
        state=UPLOADED,
        sha256=sha256,
        size_bytes=listed.size_bytes,
        object_key=listed.object_key,
        name=listed.name,
        download_url=listed.download_url,
        download_url_expires_at=listed.download_url_expires_at,
    )
    session.add(row)
    return row


def _parse_time(text: str | None, display: Display, index: int) -> dt.datetime | None:
    if not text:
        return None
    try:
        return parse_local_time(text, display.time_zone)
    except ValueError as exc:
        raise ApiError(
            "PARAMETER_INVALID", f"resources[{index}].downloadUrlExpiresAt must be yyyy-MM-dd HH:mm:ss"
        ) from exc
