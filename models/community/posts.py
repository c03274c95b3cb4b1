"""Discussion and question posts, answers and moments: the reads (live records only), publish
and delete with their post.published / post.deleted events, and answer acceptance.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from decimal import Decimal
from typing import Any, TypeVar

from sqlalchemy import Select, case, func, or_, select
from sqlalchemy.orm import InstrumentedAttribute, Session

from models.base import Base
from models.community import records
from models.community.notifications import notify
from models.community.tables import DISCUSS, QUESTION, Answer, CommunityPost, Moment
from models.community.vos import MomentVO, PostDetailVO, PostSummaryVO, QuestionVO
from models.identity.tables import User
from models.paging import check_page, page_result
from models.search.backends import like_pattern
from models.types import utcnow
from models.webhooks.events import emit
from modhub.core.display import Display
from modhub.core.errors import ApiError
from modhub.core.sanitize import clean_html

LIVE_USER = User.is_delete.is_(False)
E = TypeVar("E", bound=Base)


def page_with_authors(
    session: Session,
    query: Select[E],
    author_col: InstrumentedAttribute[int],
    *,
    page_num: int,
    page_size: int,
) -> tuple[list[tuple[E, User | None]], int]:
    """One page of (row, author or None) pairs and the total (two queries)."""
    offset = check_page(page_num=page_num, page_size=page_size)
    total = session.execute(select(func.count()).select_from(query.order_by(None).subquery())).scalar_one()
    if total <= offset:
        return [], total
    entity: type[E] = query.column_descriptions[0]["entity"]
    rows = session.execute(
        query.with_only_columns(entity, User)
        .outerjoin(User, (User.id == author_col) & LIVE_USER)
        .offset(offset)
        .limit(page_size)
    ).all()
    return [(row, author) for row, author in rows], total


def _posts(post_type: str, *, section_code: str | None, keyword: str | None) -> Select[CommunityPost]:
    query = select(CommunityPost).where(
        CommunityPost.post_type == post_type, CommunityPost.is_delete.is_(False)
    )
    if section_code:
        query = query.where(CommunityPost.section_code == section_code)
    if keyword:
        pattern = like_pattern(keyword.lower())
        query = query.where(
            or_(
                func.lower(CommunityPost.title).like(pattern, escape="\\"),
                func.lower(CommunityPost.content_md).like(pattern, escape="\\"),
            )
        )
    return query.order_by(CommunityPost.publish_time.desc(), CommunityPost.id.desc())


def get_live_post(session: Session, *, post_type: str, post_id: int) -> CommunityPost:
    """A not-deleted post of the type, or RECORD_NOT_FOUND."""
    post = session.get(CommunityPost, post_id)
    if post is None or post.is_delete or post.post_type != post_type:
        raise ApiError("RECORD_NOT_FOUND", f"{post_type} {post_id} does not exist")
    return post


def _author(session: Session, user_id: int) -> User | None:
    user = session.get(User, user_id)
    return user if user is not None and not user.is_delete else None


def query_discuss(
    session: Session,
    *,
    section_code: str | None,
    keyword: str | None,
    page_num: int,
    page_size: int,
    display: Display,
    user_id: int | None = None,
) -> dict[str, Any]:
    """PageResult<CommunityPostSummaryVO> of discussion posts, newest first."""
    query = _posts(DISCUSS, section_code=section_code, keyword=keyword)
    if user_id is not None:
        query = query.where(CommunityPost.user_id == user_id)
    rows, total = page_with_authors(
        session, query, CommunityPost.user_id, page_num=page_num, page_size=page_size
    )
    items = [records.post_summary(p, u, display=display) for p, u in rows]
    return page_result(items, total=total, page_num=page_num, page_size=page_size)


def get_discuss(session: Session, *, post_id: int, display: Display) -> PostDetailVO:
    """CommunityPostDetailVO of one discussion post."""
    post = get_live_post(session, post_type=DISCUSS, post_id=post_id)
    return records.post_detail(post, _author(session, post.user_id), display=display)


def details_by_ids(
    session: Session, *, post_type: str, post_ids: list[int], display: Display
) -> dict[int, PostDetailVO] | dict[int, QuestionVO]:
    """CommunityPostDetailVO (discussion) or CommunityQuestionVO with content (question) of the live
    posts of that type among post_ids, by id (two queries: posts, then their authors)."""
    posts = list(
        session.scalars(
            select(CommunityPost).where(
                CommunityPost.id.in_(set(post_ids)),
                CommunityPost.post_type == post_type,
                CommunityPost.is_delete.is_(False),
            )
        )
    )
    user_ids = {p.user_id for p in posts}
    authors = {u.id: u for u in session.scalars(select(User).where(User.id.in_(user_ids), LIVE_USER))}
    if post_type == DISCUSS:
        return {p.id: records.post_detail(p, authors.get(p.user_id), display=display) for p in posts}
    return {p.id: records.question(p, authors.get(p.user_id), display=display, detail=True) for p in posts}


def query_questions(
    session: Session,
    *,
    section_code: str | None,
    keyword: str | None,
    is_resolved: bool | None,
    page_num: int,
    page_size: int,
    display: Display,
) -> dict[str, Any]:
    """PageResult<CommunityQuestionVO> of questions, newest first (no content in the list)."""
    query = _posts(QUESTION, section_code=section_code, keyword=keyword)
    if is_resolved is not None:
        resolved = CommunityPost.question_status == "RESOLVED"
        query = query.where(resolved if is_resolved else ~resolved)
    rows, total = page_with_authors(
        session, query, CommunityPost.user_id, page_num=page_num, page_size=page_size
    )
    items = [records.question(p, u, display=display) for p, u in rows]
    return page_result(items, total=total, page_num=page_num, page_size=page_size)


def get_question(session: Session, *, post_id: int, display: Display) -> QuestionVO:
    """CommunityQuestionVO of one question, content included."""
    post = get_live_post(session, post_type=QUESTION, post_id=post_id)
    return records.question(post, _author(session, post.user_id), display=display, detail=True)


def list_answers(
    session: Session, *, post_id: int, page_num: int, page_size: int, display: Display
) -> dict[str, Any]:
    """PageResult<CommunityAnswerVO>: accepted first, then voteScore descending, oldest first."""
    post = get_live_post(session, post_type=QUESTION, post_id=post_id)
    accepted = post.accepted_answer_id
    query = (
        select(Answer)
        .where(Answer.question_id == post_id, Answer.is_delete.is_(False))
        .order_by(
            case((Answer.id == (accepted or 0), 0), else_=1),
            (Answer.upvote_count - Answer.downvote_count).desc(),
            Answer.create_time,
            Answer.id,
        )
    )
    rows, total = page_with_authors(session, query, Answer.user_id, page_num=page_num, page_size=page_size)
    items = [records.answer(a, u, accepted_id=accepted, display=display) for a, u in rows]
    return page_result(items, total=total, page_num=page_num, page_size=page_size)


def query_moments(
    session: Session, *, user_id: int | None, page_num: int, page_size: int, display: Display
) -> dict[str, Any]:
    """PageResult<CommunityMomentVO>, newest first, optionally of one author."""
    query = select(Moment).where(Moment.is_delete.is_(False))
    if user_id is not None:
        query = query.where(Moment.user_id == user_id)
    query = query.order_by(Moment.create_time.desc(), Moment.id.desc())
    rows, total = page_with_authors(session, query, Moment.user_id, page_num=page_num, page_size=page_size)
    items = [records.moment(m, u, display=display) for m, u in rows]
    return page_result(items, total=total, page_num=page_num, page_size=page_size)


def get_moment(session: Session, *, moment_id: int, display: Display) -> MomentVO:
    """CommunityMomentVO of one moment."""
    row = session.get(Moment, moment_id)
    if row is None or row.is_delete:
        raise ApiError("RECORD_NOT_FOUND", f"moment {moment_id} does not exist")
    return records.moment(row, _author(session, row.user_id), display=display)


def _event_data(session: Session, post: CommunityPost, *, display: Display) -> dict[str, object]:
    author = _author(session, post.user_id)
    vo: PostSummaryVO | QuestionVO = (
        records.post_summary(post, author, display=display)
        if post.post_type == DISCUSS
        else records.question(post, author, display=display)
    )
    return {**vo, "postType": post.post_type}


def publish_post(
    session: Session,
    *,
    post_type: str,
    user_id: int,
    section_code: str,
    title: str,
    content_html: str | None,
    content_md: str | None,
    display: Display,
    now: dt.datetime | None = None,
    tags: Sequence[str] | None = None,
    difficulty: int | None = None,
    reward_amount: Decimal | None = None,
    reward_currency: str | None = None,
) -> CommunityPost:
    """Create a live discussion or question post (HTML sanitised, Markdown kept; a question
    starts OPEN, with its tags, difficulty and reward) and emit post.published in the same
    transaction."""
    now = now or utcnow()
    post = CommunityPost(
        post_type=post_type,
        user_id=user_id,
        section_code=section_code,
        title=title,
        content_html=clean_html(content_html),
        content_md=content_md,
        question_status="OPEN" if post_type == QUESTION else None,
        tags=list(tags or []),
        difficulty=difficulty,
        reward_amount=reward_amount,
        reward_currency=reward_currency,
        publish_time=now,
        update_time=now,
    )
    session.add(post)
    session.flush()
    emit(session, kind="post.published", data=_event_data(session, post, display=display), now=now)
    return post


def delete_post(
    session: Session, *, post_id: int, display: Display, now: dt.datetime | None = None
) -> CommunityPost:
    """Soft-delete a discussion or question post and emit post.deleted with its last summary."""
    post = session.get(CommunityPost, post_id)
    if post is None or post.is_delete:
        raise ApiError("RECORD_NOT_FOUND", f"post {post_id} does not exist")
    now = now or utcnow()
    post.is_delete, post.delete_time, post.update_time = True, now, now
    session.flush()
    emit(session, kind="post.deleted", data=_event_data(session, post, display=display), now=now)
    return post


def accept_answer(session: Session, *, question_id: int, answer_id: int, user_id: int) -> None:
    """The question's author accepts one of its answers: OPEN -> RESOLVED (final), and the
    answer's author gets an ANSWER_ACCEPTED notification in the same transaction."""
    post = get_live_post(session, post_type=QUESTION, post_id=question_id)
    if post.user_id != user_id:
        raise ApiError("NOT_QUESTION_AUTHOR")
    if post.question_status != "OPEN":
        raise ApiError("CONFLICT", f"question {question_id} is {post.question_status}")
    answer = session.get(Answer, answer_id)
    if answer is None or answer.is_delete or answer.question_id != question_id:
        raise ApiError("RECORD_NOT_FOUND", f"answer {answer_id} is not an answer of {question_id}")
    post.question_status, post.accepted_answer_id, post.update_time = "RESOLVED", answer_id, utcnow()
    notify(
        session,
        user_id=answer.user_id,
        message_type="ANSWER_ACCEPTED",
        sender_id=user_id,
        entity_type=QUESTION,
        entity_id=question_id,
    )
    session.flush()
