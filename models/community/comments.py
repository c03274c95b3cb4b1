"""Comments on any community entity: the paged list by entityType and entityId, and publish."""

from __future__ import annotations

from typing import Any

import nh3
from sqlalchemy import func, select, update
from sqlalchemy.orm import Session

from models.catalog.queries import get_listed_or_raise
from models.catalog.tables import ResourcePost
from models.community.notifications import notify
from models.community.records import comment_vo
from models.community.social import entity_owner, require_entity
from models.community.tables import DISCUSS, MOMENT, QUESTION, RESOURCE, Comment, CommunityPost, Moment
from models.identity.tables import User
from models.paging import check_page, page_result
from models.types import utcnow
from modhub.core.display import Display
from modhub.core.errors import ApiError
from modhub.core.sanitize import clean_html


def list_comments(
    session: Session, *, entity_type: str, entity_id: int, page_num: int, page_size: int, display: Display
) -> dict[str, Any]:
    """PageResult<CommentVO> of a visible record: NORMAL, not deleted, newest first."""
    require_entity(session, entity_type=entity_type, entity_id=entity_id)
    return _page(session, entity_type, entity_id, page_num=page_num, page_size=page_size, display=display)


def list_resource_comments(
    session: Session, *, post_id: int, page_num: int, page_size: int, display: Display
) -> dict[str, Any]:
    """PageResult<CommentVO> of a listed resource: NORMAL, not deleted, newest first."""
    get_listed_or_raise(session, post_id=post_id)
    return _page(session, RESOURCE, post_id, page_num=page_num, page_size=page_size, display=display)


def _page(
    session: Session, entity_type: str, entity_id: int, *, page_num: int, page_size: int, display: Display
) -> dict[str, Any]:
    offset = check_page(page_num=page_num, page_size=page_size)
    visible = (
        Comment.entity_type == entity_type,
        Comment.entity_id == entity_id,
        Comment.status == "NORMAL",
        Comment.is_delete.is_(False),
    )
    total = session.execute(select(func.count()).select_from(Comment).where(*visible)).scalar_one()
    rows = (
        session.execute(
            select(Comment, User)
            .outerjoin(User, (User.id == Comment.user_id) & User.is_delete.is_(False))
            .where(*visible)
            .order_by(Comment.create_time.desc(), Comment.id.desc())
            .offset(offset)
            .limit(page_size)
        ).all()
        if total > offset
        else []
    )
    items = [comment_vo(c, u, display=display) for c, u in rows]
    return page_result(items, total=total, page_num=page_num, page_size=page_size)


# entity type -> model whose comment_count a new top-level comment or reply moves
_COMMENTED: dict[str, type[CommunityPost] | type[Moment] | type[ResourcePost]] = {
    DISCUSS: CommunityPost,
    QUESTION: CommunityPost,
    MOMENT: Moment,
    RESOURCE: ResourcePost,
}


def publish(
    session: Session,
    *,
    user_id: int,
    entity_type: str,
    entity_id: int,
    content: str,
    parent_comment_id: int | None,
    mentioned_user_ids: list[int] | None,
) -> Comment:
    """Publish a comment or reply (HTML sanitised), move the counters and notify the entity's
    author (COMMENT), the parent's author (REPLY) and live mentioned users (MENTION)."""
    owner = entity_owner(session, entity_type=entity_type, entity_id=entity_id)
    if entity_type == RESOURCE:
        post = session.get(ResourcePost, entity_id)  # loaded by entity_owner: listed
        if post is None or post.comment_permission != "EVERYONE":
            raise ApiError("COMMENTS_CLOSED")
    parent = session.get(Comment, parent_comment_id) if parent_comment_id else None
    if parent_comment_id and (
        parent is None
        or parent.is_delete
        or parent.status != "NORMAL"
        or (parent.entity_type, parent.entity_id) != (entity_type, entity_id)
    ):
        raise ApiError(
            "RECORD_NOT_FOUND", f"comment {parent_comment_id} is not a comment of {entity_type} {entity_id}"
        )
    text = clean_html(content) or ""
    if not text.strip():
        raise ApiError("PARAMETER_INVALID", "content is empty once sanitised")
    row = Comment(
        entity_type=entity_type,
        entity_id=entity_id,
        user_id=user_id,
        content=text,
        parent_id=parent.id if parent else None,
        create_time=utcnow(),
    )
    session.add(row)
    model = _COMMENTED[entity_type]
    session.execute(
        update(model)
        .where(model.id == entity_id)
        .values(comment_count=model.comment_count + 1)
        .execution_options(synchronize_session=False)
    )
    if parent is not None:
        session.execute(
            update(Comment)
            .where(Comment.id == parent.id)
            .values(reply_count=Comment.reply_count + 1)
            .execution_options(synchronize_session=False)
        )
    session.flush()
    snippet = nh3.clean(text, tags=set())
    notified: set[int | None] = {user_id}
    recipients: list[tuple[int | None, str]] = [(parent.user_id, "REPLY")] if parent else []
    recipients.append((owner, "COMMENT"))
    mentioned = set(mentioned_user_ids or [])
    if mentioned:
        live = session.scalars(select(User.id).where(User.id.in_(mentioned), User.is_delete.is_(False)))
        recipients += [(uid, "MENTION") for uid in sorted(live)]
    for recipient, kind in recipients:
        if recipient not in notified:
            notified.add(recipient)
            notify(
                session,
                user_id=recipient,
                message_type=kind,
                sender_id=user_id,
                entity_type=entity_type,
                entity_id=entity_id,
                content=snippet,
            )
    return row
