"""Detail and batch records kept between requests (models.record_cache), which a keyword search's
page takes too: a kept record is served without a database statement, and a change made through
the domain (update, visibility change, deletion) is seen by the very next read, in this process
and in every other one."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest
import requests
from sqlalchemy import event, update

from models.catalog import lifecycle
from models.catalog.tables import ResourcePost
from models.identity import applications
from models.search import tiers
from models.types import utcnow
from modhub.app import build_platform
from tests.functional.identity.live import scratch_database, serve_processes
from tests.helpers.catalog import data, error_code
from tests.support import Creds

DETAIL = "/openapi/v2/mods/{}"
BATCH = "/openapi/v2/mods"
SEARCH = "/openapi/v2/mods/search"


@pytest.fixture()
def settings(settings):
    """Records kept for 30 s (the suite's default settings keep none), applications too."""
    return settings.replace(
        cdn_base_url="https://cdn.example", record_cache_seconds=30.0, app_cache_seconds=30.0
    )


@pytest.fixture()
def statements(platform):
    """The SQL statements the app sends, as sent."""
    seen: list[str] = []

    def spy(*args):
        seen.append(args[2])

    engine = platform.db.sessions.kw["bind"]
    event.listen(engine, "before_cursor_execute", spy)
    yield seen
    event.remove(engine, "before_cursor_execute", spy)


def _change(db, display, **changes):
    with db.session() as session:
        lifecycle.update_resource(session, display=display, **changes)
        session.commit()


def test_a_kept_detail_is_served_without_a_statement(signed, cat, statements):
    post = cat.post()
    first = signed.get(DETAIL.format(post))
    statements.clear()
    again = signed.get(DETAIL.format(post))
    assert data(again) == data(first) and again.headers["ETag"] == first.headers["ETag"]
    assert statements == []


def test_batch_reads_only_the_ids_it_does_not_keep(signed, cat, statements):
    a, b = cat.post(), cat.post()
    first = data(signed.post(BATCH, json={"postIds": [a, 999999]}))
    assert [r and r["postId"] for r in first] == [a, None]
    statements.clear()
    answer = data(signed.post(BATCH, json={"postIds": [999999, a, a]}))
    assert statements == []  # a and the unknown id are both kept
    assert [r and r["postId"] for r in answer] == [None, a, a]
    assert [r["postId"] for r in data(signed.post(BATCH, json={"postIds": [b, a]}))] == [b, a]


def test_a_keyword_search_takes_its_records_from_the_kept_ones(signed, cat, db, display, statements):
    """A keyword search by relevance reads its page's ids, then the records a batch keeps: the
    search keeps what it read, a kept record needs no statement, and a change is seen by the next
    search."""
    a, b = cat.post(main_name="Lantern Glow"), cat.post(main_name="Lantern Light")
    sent = statements

    def summaries_read() -> int:  # the statement that reads summaries by id (models.catalog.reads)
        return sum("modhub_summary_" in statement for statement in sent)

    first = signed.get(SEARCH, params={"keyword": "lantern"})
    assert [r["postId"] for r in data(first)["list"]] == [b, a] and summaries_read() == 1
    sent.clear()
    assert data(signed.post(BATCH, json={"postIds": [a, b]})) == data(first)["list"][::-1]
    assert sent == []  # the search kept them
    again = signed.get(SEARCH, params={"keyword": "lantern"})
    assert data(again) == data(first) and sent == []  # its page was kept too
    _change(db, display, post_id=a, main_name="Lantern Renamed")
    names = [r["mainName"] for r in data(signed.get(SEARCH, params={"keyword": "lantern"}))["list"]]
    assert names == ["Lantern Light", "Lantern Renamed"] and summaries_read() == 1


def test_kept_records_are_answered_on_the_event_loop(signed, cat, monkeypatch):
    """A kept detail or batch takes no handler thread (modhub.web.Operation, `on_loop`)."""
    post = cat.post()
    signed.get(DETAIL.format(post))
    signed.post(BATCH, json={"postIds": [post]})
    hops = []
    submit = ThreadPoolExecutor.submit

    def counted(self, *args, **kwargs):
        if self._thread_name_prefix == "modhub-handler":
            hops.append(1)
        return submit(self, *args, **kwargs)

    monkeypatch.setattr(ThreadPoolExecutor, "submit", counted)
    assert data(signed.get(DETAIL.format(post)))["postId"] == post
    assert data(signed.post(BATCH, json={"postIds": [post]}))[0]["postId"] == post
    assert hops == []
    other = cat.post()
    assert data(signed.get(DETAIL.format(other)))["postId"] == other  # not kept: read in a thread
    assert hops == [1]


def test_with_the_generation_in_the_database_kept_records_are_served_by_a_thread(
    signed, cat, platform, monkeypatch
):
    """Without Redis the generation is a database read: never on the event loop, so even a kept
    record goes to a handler thread (which reads the generation, then serves the kept text)."""
    monkeypatch.setattr(platform.records, "in_database", True)
    post = cat.post()
    first = data(signed.get(DETAIL.format(post)))
    hops = []
    submit = ThreadPoolExecutor.submit

    def counted(self, *args, **kwargs):
        if self._thread_name_prefix == "modhub-handler":
            hops.append(1)
        return submit(self, *args, **kwargs)

    monkeypatch.setattr(ThreadPoolExecutor, "submit", counted)
    assert data(signed.get(DETAIL.format(post))) == first
    assert data(signed.post(BATCH, json={"postIds": [post]}))[0]["postId"] == post
    assert hops == [1, 1]


def test_update_visibility_and_deletion_are_seen_by_the_next_read(signed, cat, db, display):
    post = cat.post()
    before = signed.get(DETAIL.format(post))
    signed.post(BATCH, json={"postIds": [post]})
    _change(db, display, post_id=post, main_name="新名字 Renamed")
    after = signed.get(DETAIL.format(post))
    assert data(after)["mainName"] == "新名字 Renamed"
    assert after.headers["ETag"] != before.headers["ETag"]
    assert data(signed.post(BATCH, json={"postIds": [post]}))[0]["mainName"] == "新名字 Renamed"
    _change(db, display, post_id=post, visibility="PRIVATE")
    assert error_code(signed.get(DETAIL.format(post)), 404) == 200404
    assert data(signed.post(BATCH, json={"postIds": [post]})) == [None]
    _change(db, display, post_id=post, visibility="PUBLIC")
    assert data(signed.get(DETAIL.format(post)))["postId"] == post
    with db.session() as session:
        lifecycle.delete_resource(session, post_id=post, display=display)
        session.commit()
    assert error_code(signed.get(DETAIL.format(post)), 404) == 200404
    assert data(signed.post(BATCH, json={"postIds": [post]})) == [None]


def test_a_rolled_back_change_keeps_the_records(signed, cat, db, display, statements):
    post = cat.post()
    signed.get(DETAIL.format(post))
    with db.session() as session:
        lifecycle.update_resource(session, display=display, post_id=post, main_name="never")
        session.rollback()
    statements.clear()
    assert data(signed.get(DETAIL.format(post)))["mainName"] != "never"
    assert statements == []


@pytest.mark.slow
def test_every_process_sees_a_change_at_its_next_read(settings):
    """Two server processes keep the record; a change committed by a third (the domain's
    lifecycle, as the admin CLI and moderation do) is seen by both at once."""
    with scratch_database("record_cache") as url:
        platform = build_platform(settings.replace(database_url=url))
        with platform.db.session() as session, session.begin():
            made = applications.create(
                session, platform.secrets, name="cache", approve=True, per_minute=100_000, per_day=1_000_000
            )
            post = ResourcePost(
                section_code="minecraft",
                main_name="原名 Original",
                sub_name="s",
                introduction="i",
                abbr_name="o",
                cover_image="c.jpg",
                resource_type="mod",
                run_platform="forge",
                status="PUBLISHED",
                visibility="PUBLIC",
                main_categories=[],
                tags=[],
                publish_time=utcnow(),
                update_time=utcnow(),
            )
            session.add(post)
        creds = Creds(made.app_id, made.api_key, made.secret_key)
        env = {
            "MODHUB_DATABASE_URL": url,
            "MODHUB_ENCRYPTION_KEY": settings.encryption_key,
            "MODHUB_REDIS_URL": settings.redis_url,
            "MODHUB_DATA_DIR": str(settings.data_dir),
            "MODHUB_RECORD_CACHE_SECONDS": "600",
        }
        path = DETAIL.format(post.id)

        def read(base):
            return requests.get(base + path, headers=creds.headers("GET", path), timeout=30)

        with serve_processes(2, env) as bases:
            for base in bases:  # each process keeps the record
                assert read(base).json()["data"]["mainName"] == "原名 Original"
            with platform.db.session() as session:  # behind the domain's back: not seen (kept)
                session.execute(
                    update(ResourcePost).where(ResourcePost.id == post.id).values(main_name="直接 Direct")
                )
                session.commit()
            assert [read(b).json()["data"]["mainName"] for b in bases] == ["原名 Original"] * 2
            with platform.db.session() as session:
                lifecycle.update_resource(
                    session, display=platform.display, post_id=post.id, main_name="改名 Renamed"
                )
                session.commit()
            assert [read(b).json()["data"]["mainName"] for b in bases] == ["改名 Renamed"] * 2
            with platform.db.session() as session:
                lifecycle.update_resource(
                    session, display=platform.display, post_id=post.id, visibility="PRIVATE"
                )
                session.commit()
            assert [read(b).json()["code"] for b in bases] == [200404, 200404]
            with platform.db.session() as session:
                lifecycle.update_resource(
                    session, display=platform.display, post_id=post.id, visibility="PUBLIC"
                )
                lifecycle.delete_resource(session, post_id=post.id, display=platform.display)
                session.commit()
            assert [read(b).json()["code"] for b in bases] == [200404, 200404]


def test_a_search_keeps_its_total_while_no_resource_changes(
    signed, cat, db, display, statements, monkeypatch
):
    """A search's count of matches is kept for the catalogue generation (searchMods, "Freshness"):
    the same keyword and filters again send no count statement and give the same total; a change
    of a resource is counted by the next search; a search filtered by gameVersion (a file's) is
    counted every time."""
    monkeypatch.setattr(tiers, "WINDOW", 1)  # a window too small for the total: the matches counted
    a, _ = cat.post(main_name="Beacon North"), cat.post(main_name="Beacon South")
    sent = statements

    def total(**params) -> tuple[int, int]:
        """The search's total, and how many count statements it sent."""
        sent.clear()
        answer = data(signed.get(SEARCH, params=params))
        counts = (
            "modhub_search_count" in s or "modhub_browse_count" in s or s.startswith("SELECT count(*)")
            for s in sent
        )
        return answer["total"], sum(counts)

    assert total(keyword="beacon") == (2, 1)
    assert total(keyword="beacon") == (2, 0)
    assert total(keyword="beacon", pageNum=2) == (2, 0)  # the page does not decide the matches
    assert total(keyword="beacon", resourceType="MOD")[1] == 1  # other filters: counted
    browse = total(sort="downloads")
    assert browse[1] == 1 and total(sort="downloads") == (browse[0], 0)
    _change(db, display, post_id=a, main_name="Lighthouse")
    assert total(keyword="beacon") == (1, 1)
    assert total(keyword="beacon") == (1, 0)
    assert total(sort="downloads")[1] == 1  # every kept total is stale after a change
    assert total(keyword="beacon", gameVersion="1.20.1")[1] == 1
    assert total(keyword="beacon", gameVersion="1.20.1")[1] == 1


def test_a_keyword_search_by_relevance_keeps_its_page_while_no_resource_changes(
    signed, cat, db, display, statements
):
    """Its order is the documents' own (tier, then postId): the same keyword, filters and page
    again send no statement; another page, order or filter is read; a change of any resource is
    seen by the next search; a search sorted by a counter, or filtered by a file's gameVersion,
    is read every time."""
    a, b, c = (cat.post(main_name=f"Harbor {n}") for n in ("One", "Two", "Three"))
    sent = statements

    def ids(**params) -> tuple[list[int], int]:
        """The page's post ids, and how many statements the search sent."""
        sent.clear()
        answer = data(signed.get(SEARCH, params={"keyword": "harbor", **params}))
        return [r["postId"] for r in answer["list"]], len(sent)

    assert ids()[0] == [c, b, a] and ids() == ([c, b, a], 0)
    assert ids(pageSize=2)[1] > 0 and ids(pageSize=2) == ([c, b], 0)
    assert ids(pageSize=2, pageNum=2)[1] > 0 and ids(pageSize=2, pageNum=2) == ([a], 0)
    assert ids(order="asc")[1] > 0 and ids(order="asc") == ([a, b, c], 0)
    assert ids(sort="downloads")[1] > 0 and ids(sort="downloads")[1] > 0
    assert ids(gameVersion="1.20.1")[1] > 0 and ids(gameVersion="1.20.1")[1] > 0
    _change(db, display, post_id=b, main_name="Lighthouse Two")
    after, read = ids()
    assert after == [c, a] and read > 0 and ids() == ([c, a], 0)
