"""A search without a keyword on PostgreSQL (models/search/browse.py): its page (per sort key and
direction) and its count are prepared with every filter in them, the values bound, and give what
the search's definition gives: the listed posts matching every filter, by the sort key then postId."""

from __future__ import annotations

import datetime as dt
import itertools
import re

import pytest
from sqlalchemy import event, select
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from models.catalog.queries import listed_clause
from models.catalog.tables import ResourcePost as P
from models.search import browse
from models.search.backends import PostgresSearch
from modhub.core.statements import CUSTOM, PREPARE_OPTION
from tests.functional.search.test_search_http import PATHS, get
from tests.helpers.catalog import NOW
from tests.helpers.search import ids


@pytest.fixture()
def shelf(cat):
    """Posts that differ in every filter and sort key, with files for game versions and loaders."""
    made = []
    for n in range(12):
        post = cat.post(
            section_code=("minecraft", "terraria")[n % 2],
            resource_type=("mod", "shader", "datapack")[n % 3],
            main_categories=[("mod-tech", "mod-magic")[n % 2], "graphics"][: 1 + n % 2],
            run_platform=(None, "forge", "fabric")[n % 3],
            client_environment=("required", "optional")[n % 2],
            is_paid=n % 4 == 0,
            download_count=(n * 7) % 5,  # ties: postId decides
            like_count=n % 3,
            rating_total=n * 3,
            rating_count=n % 4,
            publish_time=NOW - dt.timedelta(days=n % 5),
            update_time=NOW - dt.timedelta(hours=n % 3),
        )
        if n % 3:
            cat.file(
                post, resource_versions=[("1.20.1", "1.19.2")[n % 2]], run_platform=(None, "forge")[n % 2]
            )
        made.append(post)
    cat.post(visibility="PRIVATE")  # never listed
    return made


FILTERS = [
    {},
    {"section_code": "minecraft"},
    {"section_code": "terraria", "resource_type": "shader"},
    {"main_category": "graphics", "is_paid": False},
    {"client_environment": "optional", "main_category": "mod-magic"},
    {"run_platform": "forge"},
    {"game_version": "1.20.1"},
    {"game_version": "1.19.2", "run_platform": "forge"},
    {"section_code": "nowhere"},
]
SORTS = [None, "relevance", "downloads", "likes", "rating", "publishTime", "updateTime"]


def defined(session: Session, given: dict, sort: str | None, order: str) -> list[int]:
    """The search's definition: the listed posts matching every filter, by the sort key then postId."""
    backend = PostgresSearch()
    key = browse.sort_key(sort, None, backend)
    stmt = select(P.id).where(listed_clause(), *browse.filter_conditions(backend, given))
    return list(session.scalars(stmt.order_by(*browse.order_by(key, P.id, order))))


def test_every_shape_gives_what_the_definition_gives(db, shelf, display):
    with db.session() as session:
        for given, sort, order in itertools.product(FILTERS, SORTS, ("desc", "asc")):
            expected = defined(session, given, sort, order)
            for offset, size in ((0, 5), (5, 5), (10, 20)):
                total, page = browse.browse_page(
                    session, given, sort, order, offset=offset, page_size=size, cap=100, display=display
                )
                assert (total, [vo["postId"] for vo in page]) == (
                    len(expected),
                    expected[offset : offset + size],
                )
            if len(expected) > 2:  # the cap: at most cap + 1 counted
                total, _ = browse.browse_page(
                    session, given, sort, order, offset=0, page_size=1, cap=2, display=display
                )
                assert total == 3


def test_one_page_per_sort_and_direction_and_one_count_planned_for_the_values(live_catalogue):
    """Any filters, given or not, run the same two statements (planned for their values:
    force_custom_plan); another sort key or direction is another page statement."""
    mod = live_catalogue.add(2, resource_type="mod", section_code="minecraft")
    shader = live_catalogue.add(1, resource_type="shader", section_code="minecraft")
    sent: dict[str, set[str]] = {}

    def spy(conn, cursor, statement, parameters, context, executemany):
        for name in re.findall(r"EXECUTE (modhub_browse_\w+)", statement):
            sent.setdefault(name, set()).add(statement.split("; ", 1)[0] + "; ")

    asked = [
        ({"resourceType": "mod", "sort": "downloads"}, mod),
        ({"resourceType": "shader", "sort": "downloads"}, shader),
        ({"resourceType": "mod", "sort": "likes"}, mod),
        ({"resourceType": "mod", "sectionCode": "minecraft", "sort": "downloads"}, mod),
    ]
    shapes = []
    event.listen(Engine, "before_cursor_execute", spy)
    try:
        for params, expected in asked:
            sent.clear()
            found = get(live_catalogue.signed, PATHS[0], pageSize=20, **params)
            assert sorted(ids(found)) == sorted(expected) and found["total"] == len(expected), params
            shapes.append(frozenset(sent))
    finally:
        event.remove(Engine, "before_cursor_execute", spy)
    pages = [{name for name in shape if name != "modhub_browse_count"} for shape in shapes]
    assert pages == [
        {"modhub_browse_downloads_d"},
        {"modhub_browse_downloads_d"},
        {"modhub_browse_likes_d"},
    ] + [{"modhub_browse_downloads_d"}], shapes
    # the count of mods is kept for the likes (the sort does not decide the matches: record cache)
    assert [("modhub_browse_count" in shape) for shape in shapes] == [True, True, False, True], shapes
    assert all(CUSTOM in prefixes for prefixes in sent.values()), sent  # planned for the values


def test_with_prepared_statements_off_a_browse_sends_its_selects(live_catalogue, display):
    """Behind a pooler (MODHUB_DB_PREPARED_STATEMENTS=off) the same shapes are sent as SELECTs with
    their values, page and count alike, with the same answer."""
    mods = live_catalogue.add(3, resource_type="mod", main_categories=["tech"])
    live_catalogue.add(1, resource_type="shader")
    engine = live_catalogue.db.engine.execution_options(**{PREPARE_OPTION: False})
    sent: list[str] = []

    def spy(conn, cursor, statement, parameters, context, executemany):
        sent.append(statement)

    given = {"resource_type": "mod", "main_category": "tech"}
    event.listen(Engine, "after_cursor_execute", spy)
    try:
        with Session(engine) as session:
            total, page = browse.browse_page(
                session, given, "downloads", "desc", offset=0, page_size=2, cap=100, display=display
            )
    finally:
        event.remove(Engine, "after_cursor_execute", spy)
    assert total == 3 and [vo["postId"] for vo in page] == sorted(mods, reverse=True)[:2]
    reads = [s for s in sent if "resource_post" in s]  # the page and its count
    assert len(reads) == 2 and not any("PREPARE" in s or "EXECUTE" in s for s in sent), sent
