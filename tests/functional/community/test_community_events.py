"""post.published / post.deleted through the outbox for discussion and question posts, and the
question state rule of answer acceptance with its notification."""

import pytest
from sqlalchemy import select

from models.community import posts
from models.community.tables import CommunityPost, Notification
from models.webhooks.tables import OutboxEvent
from modhub.core.display import Display
from modhub.core.errors import ApiError
from tests.helpers.catalog import data, error_code
from tests.helpers.community import NOW

V2 = "/openapi/v2/community"


def _events(session):
    return [(e.kind, e.data) for e in session.scalars(select(OutboxEvent).order_by(OutboxEvent.id))]


def test_publish_and_delete_emit_post_events(signed, db, settings, make_user):
    author = make_user(username="作者")
    with db.session() as session:
        discuss = posts.publish_post(
            session,
            post_type="DISCUSS_POST",
            user_id=author,
            section_code="minecraft",
            title="新帖 news",
            content_html="<p>x<script>y</script></p>",
            content_md="x",
            display=Display.from_settings(settings),
            now=NOW,
        )
        question = posts.publish_post(
            session,
            post_type="QUESTION_POST",
            user_id=author,
            section_code="minecraft",
            title="问 how?",
            content_html=None,
            content_md="how",
            display=Display.from_settings(settings),
            now=NOW,
            tags=["forge"],
            difficulty=3,
        )
        session.commit()
        ids = discuss.id, question.id
    assert data(signed.get(f"{V2}/discuss/{ids[0]}"))["content"] == "<p>x</p>"
    shown = data(signed.get(f"{V2}/question/{ids[1]}"))
    assert (shown["questionStatus"], shown["tags"], shown["difficulty"]) == ("OPEN", ["forge"], 3)
    with db.session() as session:
        posts.delete_post(session, post_id=ids[0], display=Display.from_settings(settings))
        session.commit()
        events = _events(session)
        with pytest.raises(ApiError):
            posts.delete_post(session, post_id=ids[0], display=Display.from_settings(settings))
    assert [(k, d["postId"], d["postType"]) for k, d in events] == [
        ("post.published", ids[0], "DISCUSS_POST"),
        ("post.published", ids[1], "QUESTION_POST"),
        ("post.deleted", ids[0], "DISCUSS_POST"),
    ]
    assert events[0][1]["title"] == "新帖 news" and events[0][1]["authorName"] == "作者"
    assert events[1][1]["questionStatus"] == "OPEN"
    assert error_code(signed.get(f"{V2}/discuss/{ids[0]}"), 404) == 200404


def test_accept_answer_resolves_once_and_notifies(signed, com, make_user):
    asker, helper = make_user(), make_user()
    question = com.question(asker)
    answer = com.answer(question, helper)
    other = com.answer(com.question(asker), helper)
    with com.db.session() as session:
        for kwargs, code in (
            ({"user_id": helper, "answer_id": answer}, "NOT_QUESTION_AUTHOR"),
            ({"user_id": asker, "answer_id": other}, "RECORD_NOT_FOUND"),
        ):
            with pytest.raises(ApiError) as refused:
                posts.accept_answer(session, question_id=question, **kwargs)
            assert refused.value.entry.name == code
        posts.accept_answer(session, question_id=question, answer_id=answer, user_id=asker)
        session.commit()
        with pytest.raises(ApiError) as again:
            posts.accept_answer(session, question_id=question, answer_id=answer, user_id=asker)
        assert again.value.entry.name == "CONFLICT"
        notes = session.scalars(select(Notification.message_type).where(Notification.user_id == helper)).all()
        assert session.get(CommunityPost, question).question_status == "RESOLVED"
    assert notes == ["ANSWER_ACCEPTED"]
    shown = data(signed.get(f"{V2}/question/{question}"))
    assert (shown["isResolved"], shown["acceptedAnswerId"]) == (True, answer)
    assert data(signed.get(f"{V2}/question/{question}/answers"))["list"][0]["isAccepted"] is True
