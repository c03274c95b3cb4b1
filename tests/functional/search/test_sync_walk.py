"""The sync feed over committed data: a client that walks and keeps polling ends with exactly the
live catalogue, even when transactions commit out of order while it walks."""

from __future__ import annotations

import random
import threading
import time

import pytest
from sqlalchemy import text

from models.catalog.tables import ResourcePost

pytestmark = pytest.mark.slow  # live servers, processes or migrations

PATH = "/openapi/v2/mods/sync"


class Mirror:
    """What a sync client keeps: id -> mainName of live posts, and its cursor."""

    def __init__(self, signed):
        self.signed, self.cursor, self.posts, self.seen = signed, "", {}, []

    def poll(self, size: int = 7) -> dict:
        """One call; apply its items and deletions."""
        response = self.signed.get(PATH, params={"cursor": self.cursor, "size": size})
        assert response.status_code == 200, response.text
        data = response.json()["data"]
        for item in data["items"]:
            self.posts[item["postId"]] = item["mainName"]
            self.seen.append(item["postId"])
        for post_id in data["deletedPostIds"]:
            self.posts.pop(post_id, None)
        self.cursor = data["nextCursor"]
        return data

    def catch_up(self) -> None:
        """Poll until the feed has nothing more right now."""
        while self.poll()["hasMore"]:
            pass

    def converge(self, live: dict, timeout: float = 30) -> None:
        """Keep polling until the mirror equals the live catalogue (other transactions on the
        server may hold the feed's horizon back for a moment)."""
        deadline = time.monotonic() + timeout
        while True:
            self.catch_up()
            if self.posts == live or time.monotonic() > deadline:
                break
            time.sleep(0.05)
        assert self.posts == live


def wait_for(mirror: Mirror, post_id: int, timeout: float = 30) -> None:
    """Poll until post_id has been seen again (a content change is eventually fed)."""
    deadline = time.monotonic() + timeout
    while mirror.seen[-1:] != [post_id] and time.monotonic() < deadline:
        mirror.catch_up()
        time.sleep(0.05)


def test_sync_sees_a_change_that_commits_after_the_walker_passed(live_catalogue):
    first, second = live_catalogue.add(2)
    mirror = Mirror(live_catalogue.signed)
    mirror.converge(live_catalogue.live())
    slow = live_catalogue.db.session()
    slow.get(ResourcePost, first).main_name = "slow writer"
    slow.flush()  # holds an older transaction id, not committed yet
    live_catalogue.write(**{str(second): {"main_name": "fast writer"}})
    data = mirror.poll()
    # the fast commit must wait behind the open older transaction, or the cursor would pass it
    assert data["items"] == [] and data["hasMore"] is False
    slow.commit()
    slow.close()
    mirror.converge(live_catalogue.live())
    assert mirror.posts == {first: "slow writer", second: "fast writer"}


def test_a_walk_from_nothing_reports_only_removals_made_after_it_began(live_catalogue):
    gone_before, kept, gone_after = live_catalogue.add(3)
    live_catalogue.write(**{str(gone_before): {"is_delete": True}})
    mirror = Mirror(live_catalogue.signed)
    first = mirror.poll(size=1)  # a walk that starts from nothing
    assert first["deletedPostIds"] == [] and first["hasMore"] is True
    live_catalogue.write(**{str(gone_after): {"is_delete": True}})  # after the walk began
    deleted = []
    while True:
        data = mirror.poll(size=1)
        deleted += data["deletedPostIds"]
        if not data["hasMore"]:  # the guide's stop rule; nextCursor is never empty
            assert data["nextCursor"]
            break
    assert gone_before not in deleted and gone_after in deleted
    mirror.converge(live_catalogue.live())
    assert mirror.posts == {kept: mirror.posts[kept]}


def test_sync_is_not_held_back_by_transactions_of_other_databases(live_catalogue, pg_engine):
    (post,) = live_catalogue.add(1)
    mirror = Mirror(live_catalogue.signed)
    mirror.converge(live_catalogue.live())
    with pg_engine.connect() as elsewhere:  # the session's test database, not this catalogue's
        elsewhere.execute(text("SELECT pg_current_xact_id()"))  # an open writing transaction
        live_catalogue.write(**{str(post): {"main_name": "renamed"}})
        mirror.converge(live_catalogue.live(), timeout=10)
        elsewhere.rollback()
    assert mirror.posts == {post: "renamed"}


def test_sync_counter_updates_are_not_changes(live_catalogue):
    post, witness = live_catalogue.add(2)
    mirror = Mirror(live_catalogue.signed)
    mirror.converge(live_catalogue.live())
    live_catalogue.write(**{str(post): {"download_count": 10, "views_count": 99}})
    live_catalogue.write(**{str(witness): {"main_name": "witness"}})  # commits after the counters
    mirror.converge(live_catalogue.live())
    assert mirror.seen == [post, witness, witness]
    live_catalogue.write(**{str(post): {"introduction": "now with more"}})
    mirror.converge(live_catalogue.live())
    wait_for(mirror, post)
    assert mirror.seen[3:] == [post]


def _churn(catalogue, ids: list[int], stop: threading.Event, seed: int) -> None:
    rng = random.Random(seed)
    while not stop.is_set():
        post_id = rng.choice(ids)
        action = rng.random()
        if action < 0.6:
            catalogue.write(**{str(post_id): {"main_name": f"edit {rng.random():.6f}"}})
        elif action < 0.75:
            catalogue.write(**{str(post_id): {"is_delete": True}})
        elif action < 0.9:
            catalogue.write(**{str(post_id): {"is_delete": False, "visibility": "PUBLIC"}})
        else:
            ids.extend(catalogue.add(2, main_name=f"new {seed}"))


def test_sync_walk_during_concurrent_writes_ends_with_the_live_catalogue(live_catalogue):
    ids = live_catalogue.add(300)
    stop = threading.Event()
    writers = [threading.Thread(target=_churn, args=(live_catalogue, ids, stop, n)) for n in range(3)]
    for writer in writers:
        writer.start()
    mirror = Mirror(live_catalogue.signed)
    try:
        for _ in range(120):  # walk and keep polling while the writers run
            mirror.poll()
    finally:
        stop.set()
        for writer in writers:
            writer.join()
    mirror.converge(live_catalogue.live())
    with live_catalogue.db.session() as session:
        deleted = session.scalar(text("SELECT count(*) FROM resource_post WHERE is_delete"))
    assert deleted > 0 and len(mirror.posts) > 250  # the churn really deleted and edited


def test_sync_full_walk_returns_each_post_once(live_catalogue):
    ids = live_catalogue.add(50)
    mirror = Mirror(live_catalogue.signed)
    mirror.converge(live_catalogue.live())
    assert mirror.seen == ids
