"""Notifications: written by the domain in the transaction of their cause (reply, mention, like,
collect, follow, comment), listed, marked read and counted for their recipient only.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import bindparam, func, select, update
from sqlalchemy.orm import Session

from models.community.tables import Notification
from models.community.vos import MessageVO
from models.identity.tables import User
from models.paging import check_page, page_result
from models.types import utcnow
from modhub.core.display import Display, display_url, format_time

KINDS = (
    "COMMENT",
    "REPLY",
    "LIKE",
    "COLLECT",
    "FOLLOW",
    "MENTION",
    "PRIVATE_MESSAGE",
    "ANSWER_ACCEPTED",
    "SYSTEM",
)


def notify(
    session: Session,
    *,
    user_id: int | None,
    message_type: str,
    sender_id: int | None,
    entity_type: str | None = None,
    entity_id: int | None = None,
    content: str | None = None,
) -> None:
    """Add a notification for user_id; nothing when there is no recipient or it is the sender."""
    if user_id is None or user_id == sender_id:
        return
    session.add(
        Notification(
            user_id=user_id,
            message_type=message_type,
            sender_id=sender_id,
            entity_type=entity_type,
            entity_id=entity_id,
            content=content[:200] if content else None,
            create_time=utcnow(),
        )
    )


def message_vo(row: Notification, sender: User | None, *, display: Display) -> MessageVO:
    """MessageVO of a notification and its sender."""
    return {
        "messageId": row.id,
        "messageType": row.message_type,
        "title": row.title,
        "content": row.content,
        "senderId": row.sender_id,
        "senderName": (sender.login_name or sender.username) if sender else None,
        "senderAvatarUrl": display_url(sender.avatar, display.cdn_base_url) if sender else None,
        "entityType": row.entity_type,
        "entityId": row.entity_id,
        "readFlag": row.read_flag,
        "createTime": format_time(row.create_time, display.time_zone),
    }


def list_notifications(
    session: Session, *, user_id: int, read_flag: bool | None, page_num: int, page_size: int, display: Display
) -> dict[str, Any]:
    """PageResult<MessageVO> of the user's own notifications, newest first."""
    where = [Notification.user_id == user_id]
    if read_flag is not None:
        where.append(Notification.read_flag.is_(read_flag))
    offset = check_page(page_num=page_num, page_size=page_size)
    total = session.execute(select(func.count()).select_from(Notification).where(*where)).scalar_one()
    rows = (
        session.execute(
            select(Notification, User)
            .outerjoin(User, User.id == Notification.sender_id)
            .where(*where)
            .order_by(Notification.create_time.desc(), Notification.id.desc())
            .offset(offset)
            .limit(page_size)
        ).all()
        if total > offset
        else []
    )
    items = [message_vo(n, u, display=display) for n, u in rows]
    return page_result(items, total=total, page_num=page_num, page_size=page_size)


def mark_read(session: Session, *, user_id: int, message_ids: list[int] | None) -> None:
    """Mark the user's notifications read: the given ids (others' ids ignored), or all."""
    query = update(Notification).where(Notification.user_id == user_id, Notification.read_flag.is_(False))
    if message_ids:
        query = query.where(Notification.id.in_(set(message_ids)))
    session.execute(query.values(read_flag=True).execution_options(synchronize_session=False))


# Built once: only the user changes.
UNREAD = (
    select(func.count())
    .select_from(Notification)
    .where(Notification.user_id == bindparam("user_id"), Notification.read_flag.is_(False))
)


def unread_count(session: Session, *, user_id: int) -> int:
    """Unread notifications of the user: one count over the (user_id, read_flag) index (an
    index-only scan), run on the session's connection: no ORM layer, no statement to build."""
    return session.connection().execute(UNREAD, {"user_id": user_id}).scalar_one()
