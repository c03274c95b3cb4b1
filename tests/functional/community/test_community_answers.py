"""The question rules of the contract: who may answer (nested answers too), close and vote, with
the REPLY notifications and counters equal to the vote rows; answers seen through the reads."""

import pytest
from sqlalchemy import func, select

from models.community import answers
from models.community.tables import Answer, CommunityPost, Notification, Reaction
from modhub.core.errors import ApiError
from tests.helpers.catalog import data

V2 = "/openapi/v2/community"


def _refused(call, name: str, **kwargs) -> None:
    with pytest.raises(ApiError) as refused:
        call(**kwargs)
    assert refused.value.entry.name == name


def test_answers_nest_notify_and_follow_the_status(signed, com, make_user):
    asker, helper, other = make_user(), make_user(), make_user()
    question = com.question(asker)
    with com.db.session() as session:
        top = answers.answer_question(
            session,
            question_id=question,
            user_id=helper,
            content_html="<p>试试 <script>x</script>Forge</p>",
            content_md="试试 Forge",
        )
        nested = answers.answer_question(
            session,
            question_id=question,
            user_id=other,
            content_html=None,
            content_md="同意 agreed",
            parent_answer_id=top.id,
        )
        session.commit()
        ids = top.id, nested.id
        _refused(
            answers.answer_question,
            "SELF_ANSWER",
            session=session,
            question_id=question,
            user_id=asker,
            content_html="<p>me</p>",
            content_md=None,
        )
        _refused(
            answers.answer_question,
            "PARAMETER_INVALID",
            session=session,
            question_id=question,
            user_id=other,
            content_html="<script>x</script>",
            content_md=" ",
        )
        _refused(
            answers.answer_question,
            "RECORD_NOT_FOUND",
            session=session,
            question_id=question,
            user_id=other,
            content_html="<p>x</p>",
            content_md=None,
            parent_answer_id=999999,
        )
        _refused(
            answers.close_question,
            "NOT_QUESTION_AUTHOR",
            session=session,
            question_id=question,
            user_id=helper,
        )
        answers.close_question(session, question_id=question, user_id=asker)
        session.commit()
        _refused(
            answers.answer_question,
            "CONFLICT",
            session=session,
            question_id=question,
            user_id=other,
            content_html="<p>late</p>",
            content_md=None,
        )
        _refused(answers.close_question, "CONFLICT", session=session, question_id=question, user_id=asker)
        notes = session.execute(
            select(Notification.user_id, Notification.message_type).order_by(Notification.id)
        ).all()
    assert [tuple(n) for n in notes] == [(asker, "REPLY"), (helper, "REPLY"), (asker, "REPLY")]
    shown = data(signed.get(f"{V2}/question/{question}"))
    assert (shown["questionStatus"], shown["isResolved"], shown["commentCount"]) == ("CLOSED", False, 2)
    listed = {a["answerId"]: a for a in data(signed.get(f"{V2}/question/{question}/answers"))["list"]}
    assert listed[ids[0]]["content"] == "<p>试试 Forge</p>" and listed[ids[1]]["parentAnswerId"] == ids[0]


def test_votes_are_one_per_user_and_counters_match_rows(signed, com, make_user):
    asker, helper, voters = make_user(), make_user(), [make_user() for _ in range(3)]
    question = com.question(asker)
    answer = com.answer(question, helper)
    with com.db.session() as session:
        for direction in ("UP", "UP", "DOWN"):  # the second UP is a no-op; DOWN replaces it
            assert (
                answers.vote(
                    session,
                    user_id=voters[0],
                    entity_type="QUESTION_ANSWER",
                    entity_id=answer,
                    direction=direction,
                )
                == direction
            )
        answers.vote(
            session, user_id=voters[1], entity_type="QUESTION_ANSWER", entity_id=answer, direction="UP"
        )
        answers.vote(
            session, user_id=voters[2], entity_type="QUESTION_ANSWER", entity_id=answer, direction="UP"
        )
        answers.vote(
            session, user_id=voters[2], entity_type="QUESTION_ANSWER", entity_id=answer, direction="NONE"
        )
        for voter, direction in ((voters[0], "UP"), (voters[1], "UP"), (voters[2], "DOWN")):
            answers.vote(
                session, user_id=voter, entity_type="QUESTION_POST", entity_id=question, direction=direction
            )
        answers.vote(
            session, user_id=voters[2], entity_type="QUESTION_POST", entity_id=question, direction="UP"
        )
        session.commit()
        _refused(
            answers.vote,
            "SELF_VOTE",
            session=session,
            user_id=helper,
            entity_type="QUESTION_ANSWER",
            entity_id=answer,
            direction="UP",
        )
        _refused(
            answers.vote,
            "SELF_VOTE",
            session=session,
            user_id=asker,
            entity_type="QUESTION_POST",
            entity_id=question,
            direction="DOWN",
        )
        _refused(
            answers.vote,
            "PARAMETER_INVALID",
            session=session,
            user_id=voters[0],
            entity_type="QUESTION_ANSWER",
            entity_id=answer,
            direction="SIDEWAYS",
        )
        _refused(
            answers.vote,
            "PARAMETER_INVALID",
            session=session,
            user_id=voters[0],
            entity_type="USER_MOMENT",
            entity_id=answer,
            direction="UP",
        )
        _refused(
            answers.vote,
            "RECORD_NOT_FOUND",
            session=session,
            user_id=voters[0],
            entity_type="QUESTION_ANSWER",
            entity_id=999999,
            direction="UP",
        )

        def rows(kind, entity_type, entity_id):
            return session.scalar(
                select(func.count())
                .select_from(Reaction)
                .where(
                    Reaction.kind == kind,
                    Reaction.entity_type == entity_type,
                    Reaction.entity_id == entity_id,
                )
            )

        row = session.get(Answer, answer)
        assert (row.upvote_count, row.downvote_count) == (1, 1)
        assert rows("UPVOTE", "QUESTION_ANSWER", answer) == 1 == rows("DOWNVOTE", "QUESTION_ANSWER", answer)
        assert session.get(CommunityPost, question).vote_score == 3
        assert rows("UPVOTE", "QUESTION_POST", question) == 3
    shown = data(signed.get(f"{V2}/question/{question}/answers"))["list"][0]
    assert (shown["upvoteCount"], shown["downvoteCount"], shown["voteScore"]) == (1, 1, 0)
    assert data(signed.get(f"{V2}/question/{question}"))["voteScore"] == 3
