"""Lobby posts: publish, update, close, the anonymous manifest and the URL refresh.

A lobby post is a server_post row (so the server status events apply) plus its lobby_post row.
Only the proxy user who published a post may change it; to anyone else it does not exist (404).
"""

from __future__ import annotations

import datetime as dt
import ipaddress
import re

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from models.catalog.lifecycle import set_server_status
from models.catalog.tables import RunPlatform, Section, ServerPost
from models.files.service import get_owned_or_raise as get_community_file
from models.lobby import records
from models.lobby.tables import LISTED, PENDING, UPLOADED, LobbyBlob, LobbyPost, LobbyResource
from models.types import utcnow
from modhub.core.display import parse_local_time
from modhub.core.errors import ApiError

URL_TTL = dt.timedelta(hours=24)  # presigned URLs handed out (S3 SigV4 allows up to 7 days)
URL_RENEW_BEFORE = dt.timedelta(hours=1)  # the manifest renews URLs with less left than this
_DRIVE = re.compile(r"^[A-Za-z]:")
_HOST_LABEL = re.compile(r"^(?!-)[A-Za-z0-9-]{1,63}(?<!-)$")


def check_fields(session: Session, params: dict) -> None:
    """The publish/update fields the schema cannot check: the address is an IP address or a host
    name, the section and the run platform are known codes (200301 otherwise)."""
    ip = params["serverIp"].strip()
    try:
        ipaddress.ip_address(ip)
    except ValueError:
        labels = ip.rstrip(".").split(".")
        if len(ip) > 253 or not all(_HOST_LABEL.match(label) for label in labels):
            raise ApiError("PARAMETER_INVALID", "serverIp must be an IP address or a host name") from None
    if session.scalar(select(Section.id).where(Section.code == params["sectionCode"])) is None:
        raise ApiError("PARAMETER_INVALID", f"sectionCode {params['sectionCode']!r} is not a known section")
    run = params.get("runPlatform")
    if run and session.scalar(select(RunPlatform.id).where(RunPlatform.code == run)) is None:
        raise ApiError("PARAMETER_INVALID", f"runPlatform {run!r} is not a known run platform")


def unsafe_path_reason(path) -> str | None:
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


def presign(row: LobbyResource, storage, *, now: dt.datetime) -> None:
    """Give a row with stored bytes a fresh download URL valid for URL_TTL."""
    row.download_url = storage.url(
        row.object_key, expires_in=int(URL_TTL.total_seconds()), filename=row.name or None
    )
    row.download_url_expires_at = now + URL_TTL


def get_owned_post(
    session: Session, *, post_id: int, user_id: int, lock: bool = False
) -> tuple[LobbyPost, ServerPost]:
    """An open lobby post of this user, or 200404 (unknown, closed and someone else's alike)."""
    query = (
        select(LobbyPost, ServerPost)
        .join(ServerPost, ServerPost.id == LobbyPost.id)
        .where(LobbyPost.id == post_id, LobbyPost.is_delete.is_(False), ServerPost.is_delete.is_(False))
    )
    found = session.execute(query.with_for_update(of=LobbyPost) if lock else query).first()
    if found is None or found[0].user_id != user_id:
        raise ApiError("RECORD_NOT_FOUND", f"lobby post {post_id} does not exist")
    return found[0], found[1]


def _apply_fields(lobby: LobbyPost, server: ServerPost, params: dict, now: dt.datetime) -> None:
    server.main_name, server.section_code = params["mainName"], params["sectionCode"]
    server.server_ip, server.server_port = params["serverIp"].strip(), params["serverPort"]
    server.query_type = params.get("queryType")
    server.max_players = params.get("maxPlayers") or 0
    server.update_time = now
    lobby.post_title, lobby.server_password = params["postTitle"], params.get("serverPassword")
    lobby.server_versions = list(params.get("serverVersion") or [])
    for attr, key in (
        ("main_play_type", "mainPlayType"),
        ("server_type", "serverType"),
        ("run_platform", "runPlatform"),
        ("online_type", "onlineType"),
        ("cover_image_url", "coverImageUrl"),
        ("md_content", "mdContent"),
    ):
        setattr(lobby, attr, params.get(key))
    lobby.is_req_down_client = bool(params.get("isReqDownClient"))
    lobby.update_time = now


def publish(
    session: Session, storage, *, user_id: int, params: dict, zone: str, now: dt.datetime | None = None
) -> int:
    """Publish an open lobby post with its full resource list; returns the new post id."""
    now = now or utcnow()
    check_fields(session, params)
    server = ServerPost(
        section_code=params["sectionCode"],
        user_id=user_id,
        main_name=params["mainName"],
        publish_time=now,
        update_time=now,
    )
    session.add(server)
    session.flush()
    lobby = LobbyPost(id=server.id, user_id=user_id, post_title=params["postTitle"], create_time=now)
    session.add(lobby)
    _apply_fields(lobby, server, params, now)
    _replace_resources(
        session,
        storage,
        lobby=lobby,
        user_id=user_id,
        items=params.get("resources") or [],
        zone=zone,
        now=now,
    )
    session.flush()
    return server.id


def update(
    session: Session,
    storage,
    *,
    user_id: int,
    post_id: int,
    params: dict,
    zone: str,
    now: dt.datetime | None = None,
) -> bool:
    """Overwrite the fields of an open post and replace its resource list in full."""
    now = now or utcnow()
    lobby, server = get_owned_post(session, post_id=post_id, user_id=user_id, lock=True)
    check_fields(session, params)
    _apply_fields(lobby, server, params, now)
    _replace_resources(
        session,
        storage,
        lobby=lobby,
        user_id=user_id,
        items=params.get("resources") or [],
        zone=zone,
        now=now,
    )
    session.flush()
    return True


def close(session: Session, *, user_id: int, post_id: int, settings, now: dt.datetime | None = None) -> bool:
    """Soft-delete a post with its resource rows (pending reservations are dropped); a server
    that was online goes offline first, which raises server.status.offline."""
    now = now or utcnow()
    lobby, server = get_owned_post(session, post_id=post_id, user_id=user_id, lock=True)
    if server.server_status == "ONLINE":
        set_server_status(session, post_id=post_id, online=False, settings=settings, now=now)
    pending = session.scalars(
        select(LobbyResource.id)
        .where(  # rows locked before blobs
            LobbyResource.post_id == post_id, LobbyResource.state == PENDING
        )
        .with_for_update()
    ).all()
    release_claims(session, pending)
    session.execute(delete(LobbyResource).where(LobbyResource.id.in_(pending)))
    for row in session.scalars(
        select(LobbyResource).where(LobbyResource.post_id == post_id, LobbyResource.is_delete.is_(False))
    ):
        row.is_delete, row.listed, row.update_time = True, False, now
    lobby.is_delete = server.is_delete = True
    lobby.update_time = server.update_time = now
    session.flush()
    return True


def release_claims(session: Session, resource_ids: list[int]) -> None:
    """Drop the upload claims (PENDING blob rows) held by these reservations."""
    if resource_ids:
        session.execute(
            delete(LobbyBlob).where(LobbyBlob.state == PENDING, LobbyBlob.claim_resource_id.in_(resource_ids))
        )


def manifest(session: Session, storage, *, post_id: int, zone: str, now: dt.datetime | None = None) -> dict:
    """OpenApiServerPostLobbyManifestVo of an open post (anonymous); URLs close to expiry are
    renewed and stored, so the manifest (and its ETag) stays the same between renewals."""
    now = now or utcnow()
    found = session.execute(
        select(LobbyPost, ServerPost)
        .join(ServerPost, ServerPost.id == LobbyPost.id)
        .where(LobbyPost.id == post_id, LobbyPost.is_delete.is_(False), ServerPost.is_delete.is_(False))
    ).first()
    if found is None:
        raise ApiError("RECORD_NOT_FOUND", f"lobby post {post_id} does not exist")
    rows = session.scalars(
        select(LobbyResource)
        .where(
            LobbyResource.post_id == post_id,
            LobbyResource.listed.is_(True),
            LobbyResource.is_delete.is_(False),
            LobbyResource.environment_side.in_(("CLIENT", "BOTH")),
        )
        .order_by(LobbyResource.id)
    ).all()
    stale = [
        r
        for r in rows
        if r.object_key
        and (r.download_url_expires_at is None or r.download_url_expires_at - now < URL_RENEW_BEFORE)
    ]
    for row in stale:
        presign(row, storage, now=now)
    if stale:
        session.flush()
    return records.manifest(found[0], found[1], rows, zone=zone)


def refresh_urls(
    session: Session, storage, *, user_id: int, post_id: int, now: dt.datetime | None = None
) -> int:
    """Renew the download URLs of every listed resource with stored bytes; returns how many."""
    now = now or utcnow()
    lobby, _ = get_owned_post(session, post_id=post_id, user_id=user_id, lock=True)
    rows = session.scalars(
        select(LobbyResource).where(
            LobbyResource.post_id == post_id,
            LobbyResource.listed.is_(True),
            LobbyResource.is_delete.is_(False),
            LobbyResource.object_key.is_not(None),
        )
    ).all()
    for row in rows:
        presign(row, storage, now=now)
        row.update_time = now
    lobby.update_time = now
    session.flush()
    return len(rows)


def _replace_resources(
    session: Session,
    storage,
    *,
    lobby: LobbyPost,
    user_id: int,
    items: list[dict],
    zone: str,
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
        row = _item_row(session, lobby=lobby, user_id=user_id, item=item, index=index, zone=zone)
        _describe(row, item)
        row.listed, row.post_id, row.update_time = True, lobby.id, now
        if row.object_key and (
            row.download_url_expires_at is None or row.download_url_expires_at - now < URL_RENEW_BEFORE
        ):
            presign(row, storage, now=now)
        session.flush()


def _describe(row: LobbyResource, item: dict) -> None:
    row.resource_type = item.get("resourceType") or row.resource_type
    row.name = item.get("name") or row.name
    row.version = item.get("version")
    row.environment_side = item.get("environmentSide") or "BOTH"
    row.client_install_path = item.get("clientInstallPath") or row.client_install_path
    row.extra_json = item.get("extraJson")


def _item_row(
    session: Session, *, lobby: LobbyPost, user_id: int, item: dict, index: int, zone: str
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
            download_url_expires_at=_parse_time(item.get("downloadUrlExpiresAt"), zone, index),
        )
        session.add(row)
        return row
    return _uploaded_row(session, lobby=lobby, user_id=user_id, sha256=item["sha256"], index=index)


def _community_row(session: Session, *, user_id: int, item: dict, index: int) -> LobbyResource:
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


def _parse_time(text: str | None, zone: str, index: int) -> dt.datetime | None:
    if not text:
        return None
    try:
        return parse_local_time(text, zone)
    except ValueError as exc:
        raise ApiError(
            "PARAMETER_INVALID", f"resources[{index}].downloadUrlExpiresAt must be yyyy-MM-dd HH:mm:ss"
        ) from exc
