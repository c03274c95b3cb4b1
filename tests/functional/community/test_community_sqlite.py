"""The community reads and toggles on the embedded SQLite mode."""

import datetime as dt

import pytest

from models.community.tables import Answer, Comment, CommunityPost, Moment
from models.identity import tokens
from models.identity.tables import User
from models.types import utcnow
from modhub import demo
from modhub.app import build_platform, create_app
from tests.helpers.catalog import data, error_code
from tests.support import Creds, SignedClient

pytestmark = pytest.mark.sqlite
V2 = "/openapi/v2/community"


@pytest.fixture()
def embedded(embedded_settings, checker):
    platform = build_platform(embedded_settings)
    info = demo.ensure_demo_app(platform)
    with platform.db.session() as session, session.begin():
        author, fan = User(username="作者"), User(username="fan")
        session.add_all([author, fan])
        session.flush()
        post = CommunityPost(
            post_type="DISCUSS_POST",
            section_code="minecraft",
            user_id=author.id,
            title="红石 Redstone",
            content_html="<p>x</p>",
            tags=[],
        )
        question = CommunityPost(
            post_type="QUESTION_POST",
            section_code="minecraft",
            user_id=author.id,
            title="怎么 how",
            question_status="OPEN",
            tags=["forge"],
        )
        moment = Moment(user_id=author.id, content="hi")
        shots = Moment(
            user_id=fan.id, content="<p>my OptiFine shots</p>", create_time=utcnow() - dt.timedelta(days=1)
        )
        session.add_all([post, question, moment, shots])
        session.flush()
        answer = Answer(
            question_id=question.id,
            user_id=fan.id,
            content_html="<p>a</p>",
            content_md="安装 OptiFine 后开启光影",
        )
        session.add_all(
            [answer, Comment(entity_type="DISCUSS_POST", entity_id=post.id, user_id=fan.id, content="好")]
        )
        session.flush()
        token, _ = tokens.issue_token(
            session, app_id=info["appId"], user_id=fan.id, scopes=[], source="OAUTH", now=utcnow()
        )
        author_token, _ = tokens.issue_token(
            session, app_id=info["appId"], user_id=author.id, scopes=[], source="OAUTH", now=utcnow()
        )
        ids = {
            "post": post.id,
            "question": question.id,
            "moment": moment.id,
            "shots": shots.id,
            "answer": answer.id,
            "author": author.id,
            "fan": fan.id,
            "token": token,
            "author_token": author_token,
        }
    app = create_app(embedded_settings, db=platform.db, quota=platform.quota)
    creds = Creds(info["appId"], info["apiKey"], info["secretKey"])
    with app.test_client() as client:
        yield SignedClient(client, creds, checker), ids


def test_community_reads_and_toggles_on_sqlite(embedded):
    signed, ids = embedded
    assert [p["postId"] for p in data(signed.get(f"{V2}/discuss/query?keyword=redstone"))["list"]] == [
        ids["post"]
    ]
    assert data(signed.get(f"{V2}/discuss/{ids['post']}"))["content"] == "<p>x</p>"
    assert data(signed.get(f"{V2}/question/query"))["list"][0]["tags"] == ["forge"]
    assert data(signed.get(f"{V2}/question/{ids['question']}"))["questionStatus"] == "OPEN"
    assert data(signed.get(f"{V2}/question/{ids['question']}/answers"))["total"] == 1
    assert data(signed.get(f"{V2}/moment/query"))["list"][0]["momentId"] == ids["moment"]
    assert data(signed.get(f"{V2}/moment/{ids['moment']}"))["content"] == "hi"
    assert data(signed.get(f"{V2}/comments?entityType=DISCUSS_POST&entityId={ids['post']}"))["total"] == 1
    for keyword in ("redstone", "红石"):  # FTS5 and LIKE paths of the resource backend
        hits = data(signed.get(f"{V2}/search?keyword={keyword}"))["list"]
        assert [(h["entityType"], h["entityId"]) for h in hits] == [("DISCUSS_POST", ids["post"])]
    assert data(signed.get(f"{V2}/search/suggest?keyword=红")) == ["红石 Redstone"]
    hits = data(signed.get(f"{V2}/search?keyword=optifine"))["list"]  # FTS5 trigram tables
    assert {(h["entityType"], h["entityId"]) for h in hits} == {
        ("USER_MOMENT", ids["shots"]),
        ("QUESTION_ANSWER", ids["answer"]),
    }
    answer = next(h for h in hits if h["entityType"] == "QUESTION_ANSWER")
    assert (answer["questionId"], answer["snippet"]) == (ids["question"], "安装 <em>OptiFine</em> 后开启光影")
    assert [
        h["entityType"]
        for h in data(signed.get(f"{V2}/search?keyword=optifine&sectionCode=minecraft"))["list"]
    ] == ["QUESTION_ANSWER"]
    assert [
        h["entityId"]
        for h in data(signed.get(f"{V2}/search?keyword=光影&entityType=QUESTION_ANSWER"))["list"]
    ] == [ids["answer"]]  # LIKE path
    headers = {"X-Proxy-User-Id": str(ids["fan"]), "X-Proxy-Access-Token": ids["token"]}
    like = {"entityType": "DISCUSS_POST", "entityId": ids["post"]}
    assert data(signed.post(f"{V2}/like", json=like, headers=headers)) is True
    assert data(signed.get(f"{V2}/discuss/{ids['post']}"))["likeCount"] == 1
    assert data(signed.post(f"{V2}/like", json=like, headers=headers)) is False
    assert data(signed.post(f"{V2}/collect", json=like, headers=headers)) is True
    assert data(signed.post(f"{V2}/follow", json={"targetUserId": ids["author"]}, headers=headers)) is True
    profile = data(signed.get(f"{V2}/user/{ids['author']}"))
    assert (profile["nickname"], profile["followerCount"]) == ("作者", 1)
    assert data(signed.get(f"{V2}/user/{ids['author']}/followers"))["list"][0]["userId"] == ids["fan"]
    assert data(signed.get(f"{V2}/user/{ids['fan']}/following"))["total"] == 1
    assert data(signed.get(f"{V2}/user/{ids['author']}/posts"))["total"] == 1
    assert (
        error_code(signed.post(f"{V2}/follow", json={"targetUserId": ids["fan"]}, headers=headers), 400)
        == 200330
    )
    # the author was notified of the fan's like, collect and follow: the unread count agrees
    mine = {"X-Proxy-User-Id": str(ids["author"]), "X-Proxy-Access-Token": ids["author_token"]}
    unread = data(signed.get(f"{V2}/notifications?readFlag=false", headers=mine))["total"]
    assert unread >= 3 and data(signed.get(f"{V2}/notifications/unread-count", headers=mine)) == unread
    assert data(signed.get(f"{V2}/notifications/unread-count", headers=headers)) == 0


def test_demo_seed_writes_a_consistent_community(embedded_settings, checker):
    from sqlalchemy import text

    from modhub.seed import seed_cli

    platform = build_platform(embedded_settings)
    info = demo.ensure_demo_app(platform)
    counts = seed_cli(platform, resources=150)
    assert counts["community_post"] >= 40 and counts["community_notification"] > 0
    with platform.db.session() as session:
        off = session.execute(
            text(
                "SELECT count(*) FROM community_post p WHERE like_count <> (SELECT count(*) FROM "
                "community_reaction r WHERE r.entity_id = p.id AND r.entity_type = p.post_type) "
                "OR comment_count <> (SELECT count(*) FROM comment c WHERE c.entity_id = p.id "
                "AND c.entity_type = p.post_type) OR answer_count <> (SELECT count(*) FROM "
                "community_answer a WHERE a.question_id = p.id)"
            )
        ).scalar()
        resolved = session.execute(
            text("SELECT count(*) FROM community_post WHERE question_status = 'RESOLVED'")
        ).scalar()
        threads = session.execute(
            text(
                "SELECT count(*) FROM comment c WHERE entity_type = 'DISCUSS_POST' AND reply_count <> "
                "(SELECT count(*) FROM comment r WHERE r.parent_id = c.id)"
            )
        ).scalar()
        nested = session.execute(
            text("SELECT count(*) FROM community_answer WHERE parent_answer_id IS NOT NULL")
        ).scalar()
        kinds = set(
            session.execute(text("SELECT DISTINCT message_type FROM community_notification")).scalars()
        )
    assert off == 0 and resolved > 0 and threads == 0 and nested > 0
    assert kinds == {"ANSWER_ACCEPTED", "REPLY", "COMMENT", "LIKE", "FOLLOW", "PRIVATE_MESSAGE"}
    app = create_app(embedded_settings, db=platform.db, quota=platform.quota)
    with app.test_client() as client:
        signed = SignedClient(client, Creds(info["appId"], info["apiKey"], info["secretKey"]), checker)
        assert data(signed.get(f"{V2}/discuss/query"))["total"] > 0
        assert data(signed.get(f"{V2}/question/query?isResolved=true"))["total"] == resolved
        assert data(signed.get(f"{V2}/moment/query"))["total"] == counts["community_moment"]
