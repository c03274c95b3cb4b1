"""Domain changes that raise webhook events: publish, update and delete a resource, and a server
going online or offline. Each emits its event in the caller's transaction (flush, never commit);
the authoring and moderation handlers call these same functions. The event payloads are records
shown as the reads show them: each change takes the platform's `display`.
"""

from __future__ import annotations

import datetime as dt

from sqlalchemy import case, select
from sqlalchemy.orm import Session

from models.catalog.records import mod_summary
from models.catalog.tables import ResourceAuthor, ResourcePost, ServerPost
from models.catalog.vos import AuthorBrief, ResourceSnapshot, ServerSnapshot
from models.identity.tables import User
from models.record_cache import catalog_changed
from models.types import utcnow
from models.webhooks.events import emit
from modhub.core.display import Display
from modhub.core.errors import ApiError

# Columns an update may change (the ModSummaryVO fields a publisher edits).
UPDATABLE = frozenset(
    {
        "main_name",
        "sub_name",
        "introduction",
        "abbr_name",
        "cover_image",
        "resource_type",
        "main_categories",
        "preset_category",
        "run_platform",
        "client_environment",
        "server_environment",
        "client_install_path",
        "server_install_path",
        "server_installable",
        "resource_version",
        "resource_state",
        "is_paid",
        "price_amount",
        "price_currency_code",
        "visibility",
        "tags",
    }
)
ROLE_ORDER = {"OWNER": 0, "COLLABORATOR": 1, "CONTRIBUTOR": 2}
HIDDEN = "HIDDEN"  # taken out of every listing by consumer reports until an operator restores it


def _resource(session: Session, post_id: int) -> ResourcePost:
    post = session.get(ResourcePost, post_id, with_for_update=True)
    if post is None or post.is_delete:
        raise ApiError("RECORD_NOT_FOUND", f"resource {post_id} does not exist")
    return post


def _authors(session: Session, post_id: int, display: Display) -> list[AuthorBrief]:
    rank = case(ROLE_ORDER, value=ResourceAuthor.role, else_=9)
    rows = session.execute(
        select(ResourceAuthor.role, User)
        .join(User, User.id == ResourceAuthor.user_id)
        .where(ResourceAuthor.post_id == post_id)
        .order_by(rank, ResourceAuthor.sort_order, ResourceAuthor.id)
    ).all()
    return [
        {"userId": u.id, "userName": u.username, "role": role, "avatarUrl": display.url(u.avatar)}
        for role, u in rows
    ]


def resource_snapshot(session: Session, post: ResourcePost, *, display: Display) -> ResourceSnapshot:
    """The payload of resource events: the ModSummaryVO plus `title` (the main name)."""
    summary = mod_summary(post, display=display, authors=_authors(session, post.id, display))
    return {**summary, "title": post.main_name}


def publish_resource(
    session: Session, *, post_id: int, display: Display, now: dt.datetime | None = None
) -> ResourcePost:
    """Publish a resource post (after approval) and emit resource.published."""
    post = _resource(session, post_id)
    if post.status == "PUBLISHED":
        raise ApiError("CONFLICT", f"resource {post_id} is already published")
    now = now or utcnow()
    post.status, post.update_time = "PUBLISHED", now
    post.publish_time = post.publish_time or now
    session.flush()
    emit(
        session,
        kind="resource.published",
        data=resource_snapshot(session, post, display=display),
    )
    return post


def update_resource(
    session: Session, *, post_id: int, display: Display, now: dt.datetime | None = None, **changes: object
) -> ResourcePost:
    """Change fields of a resource; a published one emits resource.updated with the new snapshot."""
    unknown = sorted(set(changes) - UPDATABLE)
    if unknown or not changes:
        raise ApiError(
            "PARAMETER_INVALID", f"cannot update {', '.join(unknown)}" if unknown else "nothing to update"
        )
    post = _resource(session, post_id)
    for name, value in changes.items():
        setattr(post, name, value)
    post.update_time = now or utcnow()
    session.flush()
    catalog_changed(session)  # also when the post is not (or no longer) published
    if post.status == "PUBLISHED":
        emit(
            session,
            kind="resource.updated",
            data=resource_snapshot(session, post, display=display),
        )
    return post


def delete_resource(
    session: Session, *, post_id: int, display: Display, now: dt.datetime | None = None
) -> ResourcePost:
    """Soft-delete a resource and emit resource.deleted carrying its last snapshot."""
    post = _resource(session, post_id)
    now = now or utcnow()
    post.is_delete, post.delete_time, post.update_time = True, now, now
    session.flush()
    emit(
        session,
        kind="resource.deleted",
        data=resource_snapshot(session, post, display=display),
    )
    return post


def hide_resource(
    session: Session, *, post_id: int, display: Display, now: dt.datetime | None = None
) -> ResourcePost:
    """Take a published resource out of search, batch, detail and sync (status HIDDEN) and emit
    resource.deleted; publish_resource brings it back. No-op when it is not published."""
    post = _resource(session, post_id)
    if post.status != "PUBLISHED":
        return post
    post.status, post.update_time = HIDDEN, now or utcnow()
    session.flush()
    emit(
        session,
        kind="resource.deleted",
        data=resource_snapshot(session, post, display=display),
    )
    return post


def server_snapshot(post: ServerPost, *, display: Display) -> ServerSnapshot:
    """The payload of server.status events."""
    return {
        "postId": post.id,
        "title": post.main_name,
        "mainName": post.main_name,
        "sectionCode": post.section_code,
        "serverIp": post.server_ip,
        "serverPort": post.server_port,
        "serverStatus": post.server_status,
        "currentPlayers": post.current_players,
        "maxPlayers": post.max_players,
        "lastHeartbeatTime": display.time(post.last_heartbeat_time),
        "updateTime": display.time(post.update_time),
    }


def set_server_status(
    session: Session, *, post_id: int, online: bool, display: Display, now: dt.datetime | None = None
) -> bool:
    """Record a server going online or offline; emits server.status.* only when it changed."""
    post = session.get(ServerPost, post_id, with_for_update=True)
    if post is None or post.is_delete:
        raise ApiError("RECORD_NOT_FOUND", f"server post {post_id} does not exist")
    status = "ONLINE" if online else "OFFLINE"
    if post.server_status == status:
        return False
    now = now or utcnow()
    post.server_status, post.update_time = status, now
    if online:
        post.last_heartbeat_time = now
    session.flush()
    emit(
        session,
        kind=f"server.status.{status.lower()}",
        data=server_snapshot(post, display=display),
    )
    return True
