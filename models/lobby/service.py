"""Lobby posts: publish, update, close, the anonymous manifest and the URL refresh.

A lobby post is a server_post row (so the server status events apply) plus its lobby_post row.
Only the proxy user who published a post may change it; to anyone else it does not exist (404).
"""

from __future__ import annotations

import datetime as dt
import ipaddress
import re
from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from models.catalog.lifecycle import set_server_status
from models.catalog.tables import RunPlatform, Section, ServerPost
from models.lobby import records
from models.lobby.items import URL_RENEW_BEFORE, presign, replace_resources
from models.lobby.tables import PENDING, LobbyBlob, LobbyPost, LobbyResource
from models.lobby.vos import ManifestVO
from models.types import utcnow
from modhub.core.display import Display
from modhub.core.errors import ApiError
from modhub.core.storage import Storage

_HOST_LABEL = re.compile(r"^(?!-)[A-Za-z0-9-]{1,63}(?<!-)$")


def check_fields(session: Session, params: Mapping[str, Any]) -> None:
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


def _apply_fields(lobby: LobbyPost, server: ServerPost, params: Mapping[str, Any], now: dt.datetime) -> None:
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
    session: Session,
    storage: Storage,
    *,
    user_id: int,
    params: Mapping[str, Any],
    display: Display,
    now: dt.datetime | None = None,
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
    replace_resources(
        session,
        storage,
        lobby=lobby,
        user_id=user_id,
        items=params.get("resources") or [],
        display=display,
        now=now,
    )
    session.flush()
    return server.id


def update(
    session: Session,
    storage: Storage,
    *,
    user_id: int,
    post_id: int,
    params: Mapping[str, Any],
    display: Display,
    now: dt.datetime | None = None,
) -> bool:
    """Overwrite the fields of an open post and replace its resource list in full."""
    now = now or utcnow()
    lobby, server = get_owned_post(session, post_id=post_id, user_id=user_id, lock=True)
    check_fields(session, params)
    _apply_fields(lobby, server, params, now)
    replace_resources(
        session,
        storage,
        lobby=lobby,
        user_id=user_id,
        items=params.get("resources") or [],
        display=display,
        now=now,
    )
    session.flush()
    return True


def close(
    session: Session, *, user_id: int, post_id: int, display: Display, now: dt.datetime | None = None
) -> bool:
    """Soft-delete a post with its resource rows (pending reservations are dropped); a server
    that was online goes offline first, which raises server.status.offline."""
    now = now or utcnow()
    lobby, server = get_owned_post(session, post_id=post_id, user_id=user_id, lock=True)
    if server.server_status == "ONLINE":
        set_server_status(session, post_id=post_id, online=False, display=display, now=now)
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


def release_claims(session: Session, resource_ids: Sequence[int]) -> None:
    """Drop the upload claims (PENDING blob rows) held by these reservations."""
    if resource_ids:
        session.execute(
            delete(LobbyBlob).where(LobbyBlob.state == PENDING, LobbyBlob.claim_resource_id.in_(resource_ids))
        )


def manifest(
    session: Session, storage: Storage, *, post_id: int, display: Display, now: dt.datetime | None = None
) -> ManifestVO:
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
    return records.manifest(found[0], found[1], rows, display=display)


def refresh_urls(
    session: Session, storage: Storage, *, user_id: int, post_id: int, now: dt.datetime | None = None
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
