"""200 simultaneous like, collect and follow toggles over real HTTP and real commits: 4 client
processes of 10 threads each, spread over 2 server processes sharing one PostgreSQL database.
Every counter equals the rows it counts, and one user's row exists at most once."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from models.community.tables import CommunityPost, CommunityProfile, Follow, Reaction
from models.identity import applications, tokens
from models.identity.tables import User
from models.types import utcnow
from modhub.app import build_platform
from tests.burst import burst
from tests.functional.identity.live import scratch_database, serve_processes
from tests.support import Creds

PROCESSES, THREADS, SERVERS, USERS = 4, 10, 2, 8


def _seed(db, box):
    with db.session() as session, session.begin():
        creds = applications.create(
            session,
            box,
            name="conc",
            permissions=["user:proxy"],
            approve=True,
            per_minute=100_000,
            per_day=1_000_000,
        )
        users = [User(username=f"toggler-{i}") for i in range(USERS + 1)]
        session.add_all(users)
        session.flush()
        star = users[-1]
        post = CommunityPost(
            post_type="DISCUSS_POST", section_code="minecraft", user_id=star.id, title="hot", tags=[]
        )
        session.add(post)
        session.flush()
        issued = [
            tokens.issue_token(
                session, app_id=creds.app_id, user_id=u.id, scopes=[], source="OAUTH", now=utcnow()
            )[0]
            for u in users[:-1]
        ]
    return (
        Creds(creds.app_id, creds.api_key, creds.secret_key),
        list(zip([u.id for u in users[:-1]], issued, strict=True)),
        post.id,
        star.id,
    )


@pytest.mark.slow  # server processes
def test_200_simultaneous_toggles_keep_counters_equal_to_rows(settings):
    with scratch_database("community_conc") as url:
        platform = build_platform(settings.replace(database_url=url, redis_url=""))
        creds, users, post_id, star = _seed(platform.db, platform.secrets)
        target = {"entityType": "DISCUSS_POST", "entityId": post_id}
        kinds = [
            ("/openapi/v2/community/like", target),
            ("/openapi/v2/community/collect", target),
            ("/openapi/v2/community/follow", {"targetUserId": star}),
        ]
        jobs = [
            (kinds[i % 3][0], {"X-Proxy-Access-Token": users[(i // 3) % USERS][1]}, kinds[i % 3][1])
            for i in range(200)
        ]
        env = {
            "MODHUB_DATABASE_URL": url,
            "MODHUB_ENCRYPTION_KEY": settings.encryption_key,
            "MODHUB_REDIS_URL": "",
            "MODHUB_DATA_DIR": str(settings.data_dir),
        }
        with serve_processes(SERVERS, env) as bases:
            statuses = burst(bases, creds, jobs, PROCESSES, THREADS)
        with platform.db.session() as session:
            post = session.get(CommunityPost, post_id)

            def rows(kind):
                return session.scalar(
                    select(func.count())
                    .select_from(Reaction)
                    .where(Reaction.kind == kind, Reaction.entity_id == post_id)
                )

            likes, collects = rows("LIKE"), rows("COLLECT")
            follows = session.scalar(
                select(func.count()).select_from(Follow).where(Follow.followee_id == star)
            )
            followers = session.get(CommunityProfile, star).follower_count
            following = session.scalar(
                select(func.sum(CommunityProfile.following_count)).where(CommunityProfile.user_id != star)
            )
            pairs = session.execute(select(Reaction.kind, Reaction.user_id)).all()
            like_count, collection_count = post.like_count, post.collection_count
        platform.db.engine.dispose()
    assert statuses == [200] * 200
    assert like_count == likes <= USERS and collection_count == collects <= USERS
    assert followers == follows == following <= USERS
    assert len(pairs) == len(set(pairs))
