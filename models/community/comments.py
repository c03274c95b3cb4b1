"""Comments on any community entity: the paged list by entityType and entityId."""

from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from models.catalog_queries import check_page, page_result
from models.community.social import require_entity
from models.identity import User
from models.resource_lists import comment_vo
from models.resource_parts import Comment


def list_comments(session: Session, *, entity_type: str, entity_id: int, page_num: int,
                  page_size: int, settings) -> dict:
    """PageResult<CommentVO> of a visible record: NORMAL, not deleted, newest first."""
    require_entity(session, entity_type=entity_type, entity_id=entity_id)
    offset = check_page(page_num=page_num, page_size=page_size)
    visible = (Comment.entity_type == entity_type, Comment.entity_id == entity_id,
               Comment.status == "NORMAL", Comment.is_delete.is_(False))
    total = session.scalar(select(func.count()).select_from(Comment).where(*visible))
    rows = session.execute(
        select(Comment, User).outerjoin(User, (User.id == Comment.user_id) & User.is_delete.is_(False))
        .where(*visible).order_by(Comment.create_time.desc(), Comment.id.desc())
        .offset(offset).limit(page_size)).all() if total > offset else []
    items = [comment_vo(c, u, settings=settings) for c, u in rows]
    return page_result(items, total=total, page_num=page_num, page_size=page_size)
