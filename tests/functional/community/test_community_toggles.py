"""Like, collect and follow toggles through the app: the new state, counters, bad targets."""

import pytest
from sqlalchemy import func, select

from models.catalog.tables import ResourcePost
from models.community.tables import Comment, CommunityPost, CommunityProfile, Moment, Reaction
from tests.helpers.catalog import data, error_code

V2 = "/openapi/v2/community"


@pytest.fixture()
def acting(signed, creds, make_user, make_token):
    """(user id, headers) of a proxy user with a valid token."""
    user = make_user()
    return user, {"X-Proxy-User-Id": str(user), "X-Proxy-Access-Token": make_token(creds.app_id, user)}


def _counter(com, model, entity_id, column):
    with com.db.session() as session:
        return getattr(session.get(model, entity_id), column)


def _rows(com, **key):
    with com.db.session() as session:
        return session.scalar(select(func.count()).select_from(Reaction).filter_by(**key))


def test_like_toggle_answers_new_state_and_moves_counter(signed, com, acting, make_user):
    user, headers = acting
    post = com.discuss(make_user())
    body = {"entityType": "DISCUSS_POST", "entityId": post}
    assert data(signed.post(f"{V2}/like", json=body, headers=headers)) is True
    assert _counter(com, CommunityPost, post, "like_count") == 1
    assert _rows(com, kind="LIKE", entity_id=post, user_id=user) == 1
    shown = data(signed.get(f"{V2}/discuss/{post}"))
    assert shown["likeCount"] == 1
    assert data(signed.post(f"{V2}/like", json=body, headers=headers)) is False
    assert _counter(com, CommunityPost, post, "like_count") == 0
    assert _rows(com, kind="LIKE", entity_id=post, user_id=user) == 0


def test_collect_and_like_on_every_entity_type(signed, com, acting, make_user):
    _, headers = acting
    author = make_user()
    targets = [
        ("QUESTION_POST", com.question(author), CommunityPost, "collection_count", "like_count"),
        ("USER_MOMENT", com.moment(author), Moment, "collect_count", "like_count"),
        ("RESOURCE_POST", com.post(), ResourcePost, "collection_count", "like_count"),
    ]
    for entity_type, entity_id, model, collect_col, like_col in targets:
        body = {"entityType": entity_type, "entityId": entity_id}
        assert data(signed.post(f"{V2}/collect", json=body, headers=headers)) is True
        assert data(signed.post(f"{V2}/like", json=body, headers=headers)) is True
        assert _counter(com, model, entity_id, collect_col) == 1
        assert _counter(com, model, entity_id, like_col) == 1
    resource = targets[2][1]
    comment = com.comment(resource, author)
    body = {"entityType": "POST_COMMENT", "entityId": comment}
    assert data(signed.post(f"{V2}/like", json=body, headers=headers)) is True
    assert _counter(com, Comment, comment, "like_count") == 1


def test_toggle_refuses_unknown_hidden_or_bad_targets(signed, com, acting, make_user):
    _, headers = acting
    author = make_user()
    gone = com.discuss(author, is_delete=True)
    question = com.question(author)
    hidden = com.comment(com.post(), author, status="HIDDEN")
    for body in (
        {"entityType": "DISCUSS_POST", "entityId": gone},
        {"entityType": "DISCUSS_POST", "entityId": question},
        {"entityType": "POST_COMMENT", "entityId": hidden},
        {"entityType": "RESOURCE_POST", "entityId": com.post(status="DRAFT")},
    ):
        assert error_code(signed.post(f"{V2}/like", json=body, headers=headers), 404) == 200404
    assert (
        error_code(
            signed.post(f"{V2}/like", json={"entityType": "BOGUS", "entityId": 1}, headers=headers), 400
        )
        == 200301
    )
    assert (
        error_code(signed.post(f"{V2}/collect", json={"entityType": "DISCUSS_POST"}, headers=headers), 400)
        == 200301
    )


def test_toggles_need_a_proxy_token(signed, com, acting, make_user):
    user, _ = acting
    post = com.discuss(make_user())
    response = signed.post(
        f"{V2}/like",
        json={"entityType": "DISCUSS_POST", "entityId": post},
        headers={"X-Proxy-User-Id": str(user)},
    )
    assert error_code(response, 401) == 200210


def test_follow_toggle_counts_both_profiles_and_refuses_self(signed, com, acting, make_user):
    user, headers = acting
    star = make_user()
    assert data(signed.post(f"{V2}/follow", json={"targetUserId": star}, headers=headers)) is True
    assert _counter(com, CommunityProfile, star, "follower_count") == 1
    assert _counter(com, CommunityProfile, user, "following_count") == 1
    followers = data(signed.get(f"{V2}/user/{star}/followers"))
    assert [u["userId"] for u in followers["list"]] == [user]
    assert data(signed.get(f"{V2}/user/{star}"))["followerCount"] == 1
    assert data(signed.post(f"{V2}/follow", json={"targetUserId": star}, headers=headers)) is False
    assert _counter(com, CommunityProfile, star, "follower_count") == 0
    assert data(signed.get(f"{V2}/user/{star}/followers"))["total"] == 0
    assert (
        error_code(signed.post(f"{V2}/follow", json={"targetUserId": user}, headers=headers), 400) == 200330
    )
    assert (
        error_code(signed.post(f"{V2}/follow", json={"targetUserId": 999999}, headers=headers), 404) == 200404
    )
