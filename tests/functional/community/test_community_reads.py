"""Community reads through the app: discussion posts, questions, answers, moments, comments,
profiles, follow lists and a user's posts."""

import datetime as dt

import pytest

from tests.helpers.catalog import data, error_code
from tests.helpers.community import NOW

V2 = "/openapi/v2/community"


def _ids(signed, path, key="postId"):
    return [item[key] for item in data(signed.get(path))["list"]]


def test_discuss_query_newest_first_filters_and_detail(signed, com, make_user):
    author = make_user(username="作者", avatar="av/a.png")
    old = com.discuss(author, publish_time=NOW - dt.timedelta(days=1))
    new = com.discuss(
        author,
        title="Redstone 红石 guide",
        section_code="terraria",
        content_html='<p onclick="x()">hi<script>alert(1)</script></p>',
        content_md="# hi",
    )
    com.discuss(author, is_delete=True)
    com.question(author)  # other post type
    page = data(signed.get(f"{V2}/discuss/query"))
    assert [p["postId"] for p in page["list"]] == [new, old] and page["total"] == 2
    first = page["list"][0]
    assert first["authorName"] == "作者" and first["authorAvatarUrl"] == "https://cdn.example/av/a.png"
    assert first["publishTime"] == "2026-05-01 12:00:00" and "content" not in first
    assert _ids(signed, f"{V2}/discuss/query?sectionCode=terraria") == [new]
    assert _ids(signed, f"{V2}/discuss/query?keyword=红石") == [new]
    assert _ids(signed, f"{V2}/discuss/query?keyword=REDSTONE") == [new]
    assert data(signed.get(f"{V2}/discuss/query?keyword=100%25"))["total"] == 0
    detail = data(signed.get(f"{V2}/discuss/{new}"))
    assert detail["content"] == "<p>hi</p>" and detail["mdContent"] == "# hi"
    assert detail["postId"] == new and detail["likeCount"] == 0


@pytest.mark.parametrize("query", ["pageSize=101", "pageNum=0", "sectionCode=bad%20code", "keyword="])
def test_discuss_query_bad_parameters(signed, query):
    assert error_code(signed.get(f"{V2}/discuss/query?{query}"), 400) == 200301


def test_unknown_deleted_or_wrong_type_posts_are_not_found(signed, com, make_user):
    author = make_user()
    question = com.question(author)
    gone = com.discuss(author, is_delete=True)
    assert error_code(signed.get(f"{V2}/discuss/{question}"), 404) == 200404
    assert error_code(signed.get(f"{V2}/discuss/{gone}"), 404) == 200404
    assert error_code(signed.get(f"{V2}/question/{gone}"), 404) == 200404
    assert error_code(signed.get(f"{V2}/question/999999/answers"), 404) == 200404
    assert error_code(signed.get(f"{V2}/moment/999999"), 404) == 200404


def test_questions_answers_and_resolution(signed, com, make_user):
    asker, helper = make_user(), make_user(username="helper")
    open_q = com.question(asker)
    resolved = com.question(
        asker, publish_time=NOW - dt.timedelta(hours=1), reward_amount=None, reward_currency=None
    )
    low = com.answer(resolved, helper, upvote_count=1, create_time=NOW)
    high = com.answer(
        resolved, helper, upvote_count=5, downvote_count=1, create_time=NOW + dt.timedelta(minutes=1)
    )
    accepted = com.answer(resolved, asker, create_time=NOW + dt.timedelta(minutes=2))
    nested = com.answer(resolved, helper, parent_answer_id=high, create_time=NOW + dt.timedelta(minutes=3))
    com.answer(resolved, helper, is_delete=True)
    with com.db.session() as session:
        from models.community.tables import CommunityPost

        row = session.get(CommunityPost, resolved)
        row.question_status, row.accepted_answer_id, row.answer_count = "RESOLVED", accepted, 4
        session.commit()
    page = data(signed.get(f"{V2}/question/query"))
    assert [q["postId"] for q in page["list"]] == [open_q, resolved]
    listed = page["list"][0]
    assert listed["content"] is None and listed["mdContent"] is None and listed["tags"] == ["forge", "安装"]
    assert (listed["rewardAmount"], listed["rewardCurrency"]) == (10.5, "GOLD_COIN")
    assert (listed["questionStatus"], listed["isResolved"]) == ("OPEN", False)
    assert listed["acceptedAnswerId"] is None
    assert _ids(signed, f"{V2}/question/query?isResolved=true") == [resolved]
    assert _ids(signed, f"{V2}/question/query?isResolved=false") == [open_q]
    detail = data(signed.get(f"{V2}/question/{resolved}"))
    assert (detail["isResolved"], detail["acceptedAnswerId"], detail["commentCount"]) == (True, accepted, 4)
    assert detail["content"] == "<p>问题</p>" and detail["rewardAmount"] is None
    answers = data(signed.get(f"{V2}/question/{resolved}/answers"))
    assert [a["answerId"] for a in answers["list"]] == [accepted, high, low, nested]
    assert answers["list"][0]["isAccepted"] is True and answers["list"][1]["isAccepted"] is False
    assert answers["list"][1]["voteScore"] == 4 and answers["list"][3]["parentAnswerId"] == high
    assert answers["list"][1]["authorName"] == "helper"


def test_moments_query_by_user_and_detail(signed, com, make_user):
    one, two = make_user(), make_user()
    a = com.moment(one, moment_type="IMAGE")
    b = com.moment(two, create_time=NOW + dt.timedelta(minutes=1))
    com.moment(one, is_delete=True)
    assert [m["momentId"] for m in data(signed.get(f"{V2}/moment/query"))["list"]] == [b, a]
    assert [m["momentId"] for m in data(signed.get(f"{V2}/moment/query?userId={one}"))["list"]] == [a]
    moment = data(signed.get(f"{V2}/moment/{a}"))
    assert (moment["momentType"], moment["userId"], moment["content"]) == ("IMAGE", one, "今天 today")


def test_comments_by_entity_type_and_id(signed, com, make_user):
    user = make_user(username="评论")
    post = com.discuss(user)
    moment = com.moment(user)
    top = com.comment(
        post, user, entity_type="DISCUSS_POST", create_time=NOW, content="<b>好</b><script>x</script>"
    )
    reply = com.comment(
        post, user, entity_type="DISCUSS_POST", parent_id=top, create_time=NOW + dt.timedelta(minutes=1)
    )
    com.comment(post, user, entity_type="DISCUSS_POST", status="HIDDEN")
    com.comment(post, user)  # a RESOURCE_POST comment with the same id
    com.comment(moment, user, entity_type="USER_MOMENT")
    page = data(signed.get(f"{V2}/comments?entityType=DISCUSS_POST&entityId={post}"))
    assert [c["commentId"] for c in page["list"]] == [reply, top]
    assert page["list"][1]["content"] == "<b>好</b>" and page["list"][0]["parentId"] == top
    assert data(signed.get(f"{V2}/comments?entityType=USER_MOMENT&entityId={moment}"))["total"] == 1
    assert error_code(signed.get(f"{V2}/comments?entityType=DISCUSS_POST&entityId=999999"), 404) == 200404
    assert error_code(signed.get(f"{V2}/comments?entityType=QUESTION_POST&entityId={post}"), 404) == 200404
    assert error_code(signed.get(f"{V2}/comments?entityType=BOGUS&entityId={post}"), 400) == 200301
    assert error_code(signed.get(f"{V2}/comments?entityId={post}"), 400) == 200301


def test_profile_follow_lists_and_user_posts(signed, com, make_user):
    star = make_user(username="star", bio="我是 star", location="上海", gender="F")
    fans = [make_user(username=f"fan{i}") for i in range(3)]
    com.profile(star, cover_image="c/1.png", equipped_title_id=7, follower_count=3, following_count=1)
    for i, fan in enumerate(fans):
        com.follow(fan, star, create_time=NOW + dt.timedelta(minutes=i))
    com.follow(star, fans[0])
    profile = data(signed.get(f"{V2}/user/{star}"))
    assert profile == {
        "userId": star,
        "nickname": "star",
        "avatarUrl": None,
        "coverImageUrl": "https://cdn.example/c/1.png",
        "bio": "我是 star",
        "location": "上海",
        "gender": "F",
        "equippedTitleId": 7,
        "avatarFrameId": None,
        "followingCount": 1,
        "followerCount": 3,
    }
    plain = data(signed.get(f"{V2}/user/{fans[1]}"))
    assert (plain["followerCount"], plain["followingCount"], plain["coverImageUrl"]) == (0, 0, None)
    followers = data(signed.get(f"{V2}/user/{star}/followers?pageSize=2"))
    assert [u["userId"] for u in followers["list"]] == [fans[2], fans[1]] and followers["total"] == 3
    assert followers["list"][0]["followTime"] == "2026-05-01 12:02:00"
    following = data(signed.get(f"{V2}/user/{star}/following"))
    assert [u["userId"] for u in following["list"]] == [fans[0]]
    mine = com.discuss(star)
    com.discuss(fans[0])
    com.question(star)
    assert [p["postId"] for p in data(signed.get(f"{V2}/user/{star}/posts"))["list"]] == [mine]
    for path in ("", "/followers", "/following", "/posts"):
        assert error_code(signed.get(f"{V2}/user/999999{path}"), 404) == 200404
