"""Follows, likes and collects: profile and follow-list reads, and the idempotent toggles.

A toggle deletes the user's row when it exists (RETURNING tells which request removed it) or
inserts it with ON CONFLICT DO NOTHING (RETURNING tells which request created it); only the
request that changed the row moves the counter, with an atomic UPDATE in the same transaction,
so counters equal the rows they count under any concurrency.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import delete, func, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session
from sqlalchemy.sql.elements import ColumnElement

from models.catalog.queries import listed_clause
from models.catalog.tables import ResourcePost
from models.community import records
from models.community.notifications import notify
from models.community.tables import (
    COMMENT,
    DISCUSS,
    MOMENT,
    QUESTION,
    RESOURCE,
    Comment,
    CommunityPost,
    CommunityProfile,
    Follow,
    Moment,
    Reaction,
)
from models.community.vos import ProfileVO
from models.identity.tables import User
from models.paging import check_page, page_result
from models.types import utcnow
from modhub.core.display import Display
from modhub.core.errors import ApiError

# The tables whose rows are liked, collected or commented on.
Counted = type[CommunityPost] | type[Moment] | type[ResourcePost] | type[Comment]

# entity type -> (model, like counter, collect counter)
COUNTERS: dict[str, tuple[Counted, str, str | None]] = {
    DISCUSS: (CommunityPost, "like_count", "collection_count"),
    QUESTION: (CommunityPost, "like_count", "collection_count"),
    MOMENT: (Moment, "like_count", "collect_count"),
    RESOURCE: (ResourcePost, "like_count", "collection_count"),
    COMMENT: (Comment, "like_count", None),
}


def _insert(
    session: Session, model: type[Reaction] | type[Follow] | type[CommunityProfile]
) -> postgresql.Insert | sqlite.Insert:
    """INSERT of the session's dialect that can ignore a unique conflict."""
    name = session.get_bind().dialect.name
    return postgresql.insert(model) if name == "postgresql" else sqlite.insert(model)


def live_user(session: Session, user_id: int) -> User:
    """A not-deleted user, or RECORD_NOT_FOUND."""
    user = session.get(User, user_id)
    if user is None or user.is_delete:
        raise ApiError("RECORD_NOT_FOUND", f"user {user_id} does not exist")
    return user


def entity_owner(session: Session, *, entity_type: str, entity_id: int) -> int | None:
    """The author id of a shown record (live post of that type, live moment, listed resource,
    NORMAL comment; None for a resource without one), or RECORD_NOT_FOUND."""
    model: Counted
    where: list[ColumnElement[bool]]
    if entity_type in (DISCUSS, QUESTION):
        model, where = (
            CommunityPost,
            [CommunityPost.post_type == entity_type, CommunityPost.is_delete.is_(False)],
        )
    elif entity_type == MOMENT:
        model, where = Moment, [Moment.is_delete.is_(False)]
    elif entity_type == RESOURCE:
        model, where = ResourcePost, [listed_clause()]
    else:
        model, where = Comment, [Comment.status == "NORMAL", Comment.is_delete.is_(False)]
    found = session.execute(select(model.user_id).where(model.id == entity_id, *where)).first()
    if found is None:
        raise ApiError("RECORD_NOT_FOUND", f"{entity_type} {entity_id} does not exist")
    return found[0]


def require_entity(session: Session, *, entity_type: str, entity_id: int) -> None:
    """RECORD_NOT_FOUND unless the record is shown."""
    entity_owner(session, entity_type=entity_type, entity_id=entity_id)


def _bump(session: Session, model: Counted, column: str | None, entity_id: int, step: int) -> None:
    if column is None:
        return
    counter = getattr(model, column)
    query = update(model).where(model.id == entity_id)
    if step < 0:
        query = query.where(counter > 0)
    session.execute(query.values({column: counter + step}).execution_options(synchronize_session=False))


def toggle_reaction(session: Session, *, kind: str, user_id: int, entity_type: str, entity_id: int) -> bool:
    """Like or collect toggle of the user; answers the new state (True = now on)."""
    owner = entity_owner(session, entity_type=entity_type, entity_id=entity_id)
    model, like_col, collect_col = COUNTERS[entity_type]
    column = like_col if kind == "LIKE" else collect_col
    key = (
        Reaction.kind == kind,
        Reaction.entity_type == entity_type,
        Reaction.entity_id == entity_id,
        Reaction.user_id == user_id,
    )
    removed = session.execute(delete(Reaction).where(*key).returning(Reaction.id)).first()
    if removed is not None:
        _bump(session, model, column, entity_id, -1)
        return False
    added = session.execute(
        _insert(session, Reaction)
        .values(
            kind=kind, entity_type=entity_type, entity_id=entity_id, user_id=user_id, create_time=utcnow()
        )
        .on_conflict_do_nothing(index_elements=["kind", "entity_type", "entity_id", "user_id"])
        .returning(Reaction.id)
    ).first()
    if added is not None:
        _bump(session, model, column, entity_id, 1)
        notify(
            session,
            user_id=owner,
            message_type=kind,
            sender_id=user_id,
            entity_type=entity_type,
            entity_id=entity_id,
        )
    return True


def _ensure_profiles(session: Session, *user_ids: int) -> None:
    for user_id in user_ids:
        session.execute(
            _insert(session, CommunityProfile)
            .values(user_id=user_id)
            .on_conflict_do_nothing(index_elements=["user_id"])
        )


def toggle_follow(session: Session, *, user_id: int, target_user_id: int) -> bool:
    """Follow toggle; answers the new state (True = now following); no self-follow."""
    if user_id == target_user_id:
        raise ApiError("SELF_FOLLOW")
    live_user(session, target_user_id)
    _ensure_profiles(session, user_id, target_user_id)
    pair = (Follow.follower_id == user_id, Follow.followee_id == target_user_id)
    if session.execute(delete(Follow).where(*pair).returning(Follow.id)).first() is not None:
        step, state = -1, False
    else:
        added = session.execute(
            _insert(session, Follow)
            .values(follower_id=user_id, followee_id=target_user_id, create_time=utcnow())
            .on_conflict_do_nothing(index_elements=["follower_id", "followee_id"])
            .returning(Follow.id)
        ).first()
        step, state = (1 if added is not None else 0), True
        if added is not None:
            notify(session, user_id=target_user_id, message_type="FOLLOW", sender_id=user_id)
    if step:
        for uid, column in ((user_id, "following_count"), (target_user_id, "follower_count")):
            query = update(CommunityProfile).where(CommunityProfile.user_id == uid)
            if step < 0:
                query = query.where(getattr(CommunityProfile, column) > 0)
            session.execute(query.values({column: getattr(CommunityProfile, column) + step}))
    return state


def get_profile(session: Session, *, user_id: int, display: Display) -> ProfileVO:
    """CommunityUserProfileVO of a live user."""
    user = live_user(session, user_id)
    return records.profile(user, session.get(CommunityProfile, user_id), display=display)


def list_follows(
    session: Session, *, user_id: int, followers: bool, page_num: int, page_size: int, display: Display
) -> dict[str, Any]:
    """PageResult<CommunityFollowUserVO>: followers (or followed users), newest follow first."""
    live_user(session, user_id)
    mine, other = (
        (Follow.followee_id, Follow.follower_id) if followers else (Follow.follower_id, Follow.followee_id)
    )
    where = (mine == user_id, User.is_delete.is_(False))
    offset = check_page(page_num=page_num, page_size=page_size)
    total = session.execute(
        select(func.count()).select_from(Follow).join(User, User.id == other).where(*where)
    ).scalar_one()
    rows = (
        session.execute(
            select(User, Follow.create_time)
            .join(Follow, User.id == other)
            .where(*where)
            .order_by(Follow.create_time.desc(), Follow.id.desc())
            .offset(offset)
            .limit(page_size)
        ).all()
        if total > offset
        else []
    )
    items = [records.follow_user(u, t, display=display) for u, t in rows]
    return page_result(items, total=total, page_num=page_num, page_size=page_size)
