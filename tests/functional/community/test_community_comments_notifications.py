"""Comment publish (replies, mentions, sanitising, closed records) and the notifications it and
the toggles write: list with readFlag, mark read (own only), unread count."""

import pytest
from sqlalchemy import func, select

from models.community.tables import Comment, CommunityPost, Notification
from tests.helpers.catalog import data, error_code

V2 = "/openapi/v2/community"


@pytest.fixture()
def as_user(creds, make_user, make_token):
    """Factory: (user id, proxy headers) of a new user with a valid token."""

    def make(**fields):
        user = make_user(**fields)
        return user, {"X-Proxy-User-Id": str(user), "X-Proxy-Access-Token": make_token(creds.app_id, user)}

    return make


def _notes(com, user_id):
    with com.db.session() as session:
        return [
            (n.message_type, n.sender_id)
            for n in session.scalars(
                select(Notification).where(Notification.user_id == user_id).order_by(Notification.id)
            )
        ]


def test_comment_reply_and_mentions_write_rows_counters_and_notifications(signed, com, as_user, make_user):
    author, _ = as_user()
    commenter, c_headers = as_user(username="commenter")
    replier, r_headers = as_user()
    mentioned = make_user()
    post = com.discuss(author)
    body = {
        "entityType": "DISCUSS_POST",
        "entityId": post,
        "content": '<p onclick="x()">好帖<script>alert(1)</script></p>',
    }
    assert data(signed.post(f"{V2}/comment", json=body, headers=c_headers)) is True
    listed = data(signed.get(f"{V2}/comments?entityType=DISCUSS_POST&entityId={post}"))["list"]
    assert len(listed) == 1 and listed[0]["content"] == "<p>好帖</p>"
    top = listed[0]["commentId"]
    reply = {
        **body,
        "content": "同意",
        "parentCommentId": top,
        "mentionedUserIds": [mentioned, mentioned, 999999, replier],
    }
    assert data(signed.post(f"{V2}/comment", json=reply, headers=r_headers)) is True
    with com.db.session() as session:
        assert session.get(Comment, top).reply_count == 1
        assert session.get(CommunityPost, post).comment_count == 2
    assert _notes(com, author) == [("COMMENT", commenter), ("COMMENT", replier)]
    assert _notes(com, commenter) == [("REPLY", replier)]
    assert _notes(com, mentioned) == [("MENTION", replier)]  # once; unknown ids and self ignored
    assert _notes(com, replier) == []


def test_comment_bad_inputs(signed, com, as_user, make_user):
    user, headers = as_user()
    post, other = com.discuss(make_user()), com.discuss(make_user())
    foreign = com.comment(other, user, entity_type="DISCUSS_POST")
    base = {"entityType": "DISCUSS_POST", "entityId": post, "content": "hi"}
    assert (
        error_code(signed.post(f"{V2}/comment", json={**base, "entityId": 999999}, headers=headers), 404)
        == 200404
    )
    assert (
        error_code(
            signed.post(f"{V2}/comment", json={**base, "entityType": "POST_COMMENT"}, headers=headers), 400
        )
        == 200301
    )
    assert (
        error_code(
            signed.post(
                f"{V2}/comment", json={**base, "mentionedUserIds": list(range(1, 12))}, headers=headers
            ),
            400,
        )
        == 200301
    )
    assert (
        error_code(
            signed.post(f"{V2}/comment", json={**base, "parentCommentId": foreign}, headers=headers), 404
        )
        == 200404
    )
    assert (
        error_code(
            signed.post(f"{V2}/comment", json={**base, "content": "<script>x</script>"}, headers=headers), 400
        )
        == 200301
    )
    closed = com.post(comment_permission="NOBODY")
    assert (
        error_code(
            signed.post(
                f"{V2}/comment",
                json={**base, "entityType": "RESOURCE_POST", "entityId": closed},
                headers=headers,
            ),
            403,
        )
        == 200230
    )
    with com.db.session() as session:
        assert (
            session.scalar(select(func.count()).select_from(Comment).where(Comment.user_id == user)) == 1
        )  # only the fixture's


def test_notifications_list_read_flag_mark_read_and_unread_count(signed, com, as_user):
    star, s_headers = as_user()
    fan, f_headers = as_user(username="fan", avatar="av/f.png")
    other, o_headers = as_user()
    post = com.discuss(star)
    target = {"entityType": "DISCUSS_POST", "entityId": post}
    assert data(signed.post(f"{V2}/like", json=target, headers=f_headers)) is True
    assert data(signed.post(f"{V2}/collect", json=target, headers=f_headers)) is True
    assert data(signed.post(f"{V2}/follow", json={"targetUserId": star}, headers=f_headers)) is True
    assert data(signed.post(f"{V2}/like", json=target, headers=f_headers)) is False  # unlike: no note
    assert data(signed.post(f"{V2}/like", json=target, headers=s_headers)) is True  # own: no note
    assert data(signed.post(f"{V2}/follow", json={"targetUserId": star}, headers=o_headers)) is True
    assert data(signed.get(f"{V2}/notifications/unread-count", headers=s_headers)) == 4
    page = data(signed.get(f"{V2}/notifications", headers=s_headers))
    assert [m["messageType"] for m in page["list"]] == ["FOLLOW", "FOLLOW", "COLLECT", "LIKE"]
    like = page["list"][3]
    assert (like["senderId"], like["senderName"], like["entityType"], like["entityId"], like["readFlag"]) == (
        fan,
        "fan",
        "DISCUSS_POST",
        post,
        False,
    )
    assert like["senderAvatarUrl"] == "https://cdn.example/av/f.png"
    ids = [m["messageId"] for m in page["list"]]
    # another user's ids are ignored
    assert data(signed.post(f"{V2}/notifications/read", json={"messageIds": ids}, headers=o_headers)) is None
    assert data(signed.get(f"{V2}/notifications/unread-count", headers=s_headers)) == 4
    assert (
        data(signed.post(f"{V2}/notifications/read", json={"messageIds": ids[:1]}, headers=s_headers)) is None
    )
    assert data(signed.get(f"{V2}/notifications/unread-count", headers=s_headers)) == 3
    read = data(signed.get(f"{V2}/notifications?readFlag=true", headers=s_headers))
    assert [m["messageId"] for m in read["list"]] == ids[:1] and read["list"][0]["readFlag"] is True
    assert data(signed.get(f"{V2}/notifications?readFlag=false", headers=s_headers))["total"] == 3
    assert data(signed.post(f"{V2}/notifications/read", json={}, headers=s_headers)) is None
    assert data(signed.get(f"{V2}/notifications/unread-count", headers=s_headers)) == 0
    assert data(signed.get(f"{V2}/notifications", headers=o_headers))["total"] == 0
    assert error_code(signed.get(f"{V2}/notifications?readFlag=maybe", headers=s_headers), 400) == 200301
