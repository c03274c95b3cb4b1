"""Private messages: recipient checks, the sensitive-word policy and the recipient's notification.

Policy: no listed word -> DELIVERED (a PRIVATE_MESSAGE notification for the recipient); a REVIEW
word -> REVIEW (stored, held for manual review, not shown to the recipient); a BLOCK word ->
BLOCKED (stored for audit, never delivered). The sender learns only hasSensitiveWords.
"""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from models.community.notifications import notify
from models.community.sensitive import matcher
from models.community.social import live_user
from models.community.tables import PrivateMessage, UserBlock
from models.community.vos import PrivateMessageResultVO
from models.types import utcnow
from modhub.core.errors import ApiError

STATUS_OF = {None: "DELIVERED", "REVIEW": "REVIEW", "BLOCK": "BLOCKED"}


def send(
    session: Session, *, sender_id: int, to_user_id: int, content: str, words: tuple[str, ...]
) -> PrivateMessageResultVO:
    """OpenApiPrivateMessageResultVO of a stored message (delivered, held or blocked)."""
    if to_user_id == sender_id:
        raise ApiError("SELF_MESSAGE")
    live_user(session, to_user_id)
    blocked = session.scalar(
        select(UserBlock.id).where(UserBlock.blocker_id == to_user_id, UserBlock.blocked_id == sender_id)
    )
    if blocked is not None:
        raise ApiError("BLOCKED_BY_RECIPIENT")
    text = content.strip()
    if not text:
        raise ApiError("PARAMETER_INVALID", "content is blank")
    action = matcher(words).action(text) if words else None
    row = PrivateMessage(
        sender_id=sender_id,
        recipient_id=to_user_id,
        content=text,
        status=STATUS_OF[action],
        has_sensitive_words=action is not None,
        create_time=utcnow(),
    )
    session.add(row)
    session.flush()
    if action is None:
        notify(session, user_id=to_user_id, message_type="PRIVATE_MESSAGE", sender_id=sender_id, content=text)
    return {"messageId": row.id, "hasSensitiveWords": action is not None}
