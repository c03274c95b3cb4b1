"""Question writes beyond acceptance (models/community/posts.py): answering (nested answers),
closing, and votes up and down on questions and answers, with the rules of the contract's
CommunityQuestionVO.questionStatus:

- anyone but the question's author may answer an OPEN question (also under another answer of
  it); a RESOLVED or CLOSED question takes no new answers;
- the question's author may close an OPEN question (OPEN -> CLOSED, final);
- any user other than the author may vote on a live question or answer, whatever the status:
  one vote per user and record, UP, DOWN or NONE (withdrawn); setting the vote one has is a
  no-op. Votes are rows (community_reaction, kinds UPVOTE / DOWNVOTE), changed with the
  insert-or-nothing / delete-returning pattern of the toggles, so counters equal the rows under
  any concurrency.

Answering notifies the question's author (REPLY) and, for a nested answer, the parent answer's
author (REPLY), in the same transaction.
"""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy import Update, delete, true, update
from sqlalchemy.orm import InstrumentedAttribute, Session

from models.community.notifications import notify
from models.community.posts import get_live_post
from models.community.social import _insert, live_user
from models.community.tables import QUESTION, Answer, CommunityPost, Reaction
from models.types import utcnow
from modhub.core.errors import ApiError
from modhub.core.sanitize import clean_html

ANSWER = "QUESTION_ANSWER"
VOTES = {"UP": "UPVOTE", "DOWN": "DOWNVOTE"}
# vote kind -> the UPDATE that moves the voted record's counter by a step (+1 or -1)
Counters = dict[str, Callable[[int], Update]]


def answer_question(
    session: Session,
    *,
    question_id: int,
    user_id: int,
    content_html: str | None,
    content_md: str | None,
    parent_answer_id: int | None = None,
) -> Answer:
    """A new answer (HTML sanitised, Markdown kept) to an OPEN question by someone else."""
    post = get_live_post(session, post_type=QUESTION, post_id=question_id)
    live_user(session, user_id)
    if post.user_id == user_id:
        raise ApiError("SELF_ANSWER")
    if post.question_status != "OPEN":
        raise ApiError("CONFLICT", f"question {question_id} is {post.question_status}: no new answers")
    parent = session.get(Answer, parent_answer_id) if parent_answer_id else None
    if parent_answer_id and (parent is None or parent.is_delete or parent.question_id != question_id):
        raise ApiError("RECORD_NOT_FOUND", f"answer {parent_answer_id} is not an answer of {question_id}")
    html = clean_html(content_html)
    if not (html or "").strip() and not (content_md or "").strip():
        raise ApiError("PARAMETER_INVALID", "the answer is empty")
    row = Answer(
        question_id=question_id,
        parent_answer_id=parent_answer_id,
        user_id=user_id,
        content_html=html,
        content_md=content_md,
        create_time=utcnow(),
    )
    session.add(row)
    session.execute(
        update(CommunityPost)
        .where(CommunityPost.id == question_id)
        .values(answer_count=CommunityPost.answer_count + 1)
        .execution_options(synchronize_session=False)
    )
    session.flush()
    for recipient in dict.fromkeys([parent.user_id if parent else None, post.user_id]):
        notify(
            session,
            user_id=recipient,
            message_type="REPLY",
            sender_id=user_id,
            entity_type=QUESTION,
            entity_id=question_id,
            content=content_md,
        )
    return row


def close_question(session: Session, *, question_id: int, user_id: int) -> None:
    """The question's author closes an OPEN question (final; it takes no new answers)."""
    post = get_live_post(session, post_type=QUESTION, post_id=question_id)
    if post.user_id != user_id:
        raise ApiError("NOT_QUESTION_AUTHOR", "only the question's author may close it")
    if post.question_status != "OPEN":
        raise ApiError("CONFLICT", f"question {question_id} is {post.question_status}")
    post.question_status, post.update_time = "CLOSED", utcnow()
    session.flush()


def _target(session: Session, entity_type: str, entity_id: int) -> tuple[int, Counters]:
    """(author id, counter updates by vote kind) of a live question or answer."""
    if entity_type == QUESTION:
        post = get_live_post(session, post_type=QUESTION, post_id=entity_id)
        score = CommunityPost.vote_score
        where = update(CommunityPost).where(CommunityPost.id == entity_id)
        return post.user_id, {
            "UPVOTE": lambda step: where.values(vote_score=score + step),
            "DOWNVOTE": lambda step: where.values(vote_score=score - step),
        }
    if entity_type != ANSWER:
        raise ApiError("PARAMETER_INVALID", f"votes are on {QUESTION} or {ANSWER}, not {entity_type}")
    row = session.get(Answer, entity_id)
    question = session.get(CommunityPost, row.question_id) if row is not None else None
    if row is None or row.is_delete or question is None or question.is_delete:
        raise ApiError("RECORD_NOT_FOUND", f"answer {entity_id} does not exist")
    where = update(Answer).where(Answer.id == entity_id)

    def counter(column: InstrumentedAttribute[int]) -> Callable[[int], Update]:
        return lambda step: where.where(column > 0 if step < 0 else true()).values({column: column + step})

    return row.user_id, {"UPVOTE": counter(Answer.upvote_count), "DOWNVOTE": counter(Answer.downvote_count)}


def vote(session: Session, *, user_id: int, entity_type: str, entity_id: int, direction: str) -> str:
    """Set the user's vote on a question or answer to UP, DOWN or NONE; answers the vote now held."""
    if direction not in (*VOTES, "NONE"):
        raise ApiError("PARAMETER_INVALID", "direction is UP, DOWN or NONE")
    author, counters = _target(session, entity_type, entity_id)
    if author == user_id:
        raise ApiError("SELF_VOTE")
    mine = (Reaction.entity_type == entity_type, Reaction.entity_id == entity_id, Reaction.user_id == user_id)
    for kind in VOTES.values():
        if (
            kind != VOTES.get(direction)
            and session.execute(
                delete(Reaction).where(Reaction.kind == kind, *mine).returning(Reaction.id)
            ).first()
        ):
            session.execute(counters[kind](-1).execution_options(synchronize_session=False))
    if direction != "NONE":
        kind = VOTES[direction]
        added = session.execute(
            _insert(session, Reaction)
            .values(
                kind=kind, entity_type=entity_type, entity_id=entity_id, user_id=user_id, create_time=utcnow()
            )
            .on_conflict_do_nothing(index_elements=["kind", "entity_type", "entity_id", "user_id"])
            .returning(Reaction.id)
        ).first()
        if added is not None:
            session.execute(counters[kind](1).execution_options(synchronize_session=False))
    session.flush()
    return direction
