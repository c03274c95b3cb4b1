"""Database round trips of the catalogue's cold reads on PostgreSQL (models/catalog/reads.py): a
detail that misses the record cache is one statement, a batch of 50 one statement, a sync page
one, a search page two (its ids, then its records by id; the count is known from the ranking
here, or is a statement of its own beside the page).

Counted: the statements the request sends (before_cursor_execute), leaving out the test
wrapper's SAVEPOINT / RELEASE / ROLLBACK TO; the application snapshot is kept, so a warmed-up
request sends no gateway read. A detail and a batch are prepared statements (modhub.core.statements):
EXECUTE, or on a connection's first use PREPARE and EXECUTE sent together, one round trip.
"""

from __future__ import annotations

import contextlib
import datetime as dt
from collections.abc import Iterator

import pytest
from sqlalchemy import event

from modhub.core.statements import PLANS
from tests.helpers.catalog import data

DETAIL, BATCH = "/openapi/v2/mods/{}", "/openapi/v2/mods"
PREPARED = (["EXECUTE"], ["PREPARE"])  # one round trip either way
SYNC, SEARCH = "/openapi/v2/mods/sync", "/openapi/v2/mods/search"
WRAPPER = ("SAVEPOINT", "RELEASE", "ROLLBACK")


@pytest.fixture()
def settings(settings):
    """Records and the application snapshot kept (what a served process does)."""
    return settings.replace(
        cdn_base_url="https://cdn.example", record_cache_seconds=30.0, app_cache_seconds=30.0
    )


@pytest.fixture()
def sent(pg_engine):
    """A context counting the statements sent meanwhile (their first word each)."""

    @contextlib.contextmanager
    def count() -> Iterator[list[str]]:
        seen: list[str] = []

        def on(_conn, _cursor, statement, *_args) -> None:
            for plan in PLANS.values():  # a prepared read's plan mode (modhub.core.statements)
                statement = statement.removeprefix(plan)
            word = statement.split(None, 1)[0].upper()
            if word not in WRAPPER:
                seen.append(word)

        event.listen(pg_engine, "before_cursor_execute", on)
        try:
            yield seen
        finally:
            event.remove(pg_engine, "before_cursor_execute", on)

    return count


@pytest.fixture()
def posts(cat, make_user) -> list[int]:
    """51 listed posts with two authors, two links and a day of statistics each."""
    owner, helper = make_user(avatar="a/1.png"), make_user(avatar="https://img.example/2.png")
    today = dt.datetime.now(dt.UTC).date()
    made = []
    for n in range(51):
        post = cat.post(main_name=f"Lantern {n}", tags=["light"], display_images=["i/1.png"])
        cat.author(post, owner)
        cat.author(post, helper, role="CONTRIBUTOR")
        cat.link(post)
        cat.link(post, "WIKI", url="https://wiki.example")
        cat.daily(post, today, views=n, downloads=1)
        made.append(post)
    return made


def test_a_detail_missing_the_cache_is_one_statement(signed, posts, sent):
    signed.get(DETAIL.format(posts[0]))  # warm: the application snapshot
    with sent() as seen:
        detail = data(signed.get(DETAIL.format(posts[1])))
    assert seen in PREPARED
    assert [a["role"] for a in detail["authors"]] == ["OWNER", "CONTRIBUTOR"]
    assert [link["linkType"] for link in detail["links"]] == ["SOURCE", "WIKI"]
    assert detail["stats"]["viewsLast24h"] == 1 and detail["displayImages"] == ["https://cdn.example/i/1.png"]
    with sent() as seen:
        assert data(signed.get(DETAIL.format(posts[1]))) == detail
    assert seen == []  # kept


def test_a_batch_of_50_missing_the_cache_is_one_statement(signed, posts, sent):
    signed.get(DETAIL.format(posts[0]))  # warm
    with sent() as seen:
        batch = data(signed.post(BATCH, json={"postIds": [*posts[1:50], 10**12]}))
    assert seen in PREPARED
    assert [s and s["postId"] for s in batch] == [*posts[1:50], None]
    assert all(len(s["authors"]) == 2 for s in batch[:-1])


def test_a_sync_page_is_one_statement(signed, posts, sent):
    first = data(signed.get(SYNC, params={"size": 20}))  # from nothing: the origin is read too
    with sent() as seen:
        page = data(signed.get(SYNC, params={"size": 100, "cursor": first["nextCursor"]}))
    assert seen in PREPARED  # the page, each row with its authors
    assert [s["postId"] for s in page["items"]] == posts[20:] and page["hasMore"] is False


@pytest.mark.parametrize("params", [{"keyword": "lantern"}, {"resourceType": "mod", "sort": "downloads"}])
def test_a_search_page_is_two_statements(signed, posts, sent, params):
    signed.get(DETAIL.format(posts[0]))  # warm
    with sent() as seen:
        page = data(signed.get(SEARCH, params={**params, "pageSize": 20}))
    # keyword: the ranked ids (WITH), then their records; filters: the count, then the page
    assert len(seen) == 2, seen
    assert len(page["list"]) == 20 and all(len(s["authors"]) == 2 for s in page["list"])
