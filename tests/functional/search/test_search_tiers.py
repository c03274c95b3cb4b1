"""The keyword search by relevance tiers (models/search/tiers.py) on PostgreSQL: the windowed read
equals ranking every match, the filters copied into resource_search_doc follow resource_post, and
a total beyond the cap is reported as a lower bound."""

from __future__ import annotations

import itertools
import re
import threading
import time

import pytest
from sqlalchemy import String, event, func, literal_column, select, text, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session

from models.catalog.queries import listed_clause
from models.catalog.tables import ResourcePost as P
from models.search import counting, service, tier_count, tiers
from models.search.backends import RESOURCE_DOC as D
from models.search.backends import contains, like_pattern
from models.search.filters import doc_filters
from modhub.core.statements import CUSTOM, PREPARE_OPTION
from modhub.db import Database
from tests.functional.search.test_search_http import PATHS, get
from tests.helpers.search import ids


@pytest.fixture()
def shelf(make_post):
    """Posts spread over every tier of 'shader pack', in both sections and types."""
    for n in range(4):
        section = "terraria" if n % 2 else "minecraft"
        make_post(main_name=f"Shader Pack {n}", section_code=section)  # 1: title phrase
        make_post(main_name=f"Pack of shader {n}", resource_type="shader")  # 2: title words
        make_post(main_name=f"Alpha {n}", tags=["shader", "pack"], section_code=section)  # 3: tags
        make_post(main_name=f"Beta {n}", introduction="a shader pack for caves", is_paid=bool(n % 2))  # 4
        make_post(main_name=f"Gamma {n}", abbr_name="shaderpacks", main_categories=["graphics"])  # 5
        make_post(main_name=f"光影包 {n}", sub_name="shader", introduction="光影 pack " * n)
        make_post(main_name=f"Unrelated {n}", introduction="nothing to see")
    make_post(main_name="Shader Pack hidden", visibility="PRIVATE")


def test_windowed_tiers_equal_ranking_every_match(db, shelf):
    """Windows of 1 and 3 rows force reads past the window for every tier; a window of 1,000 holds
    all; each page, in both directions and past the last page, equals the plain ranking."""
    keywords = ("shader", "shader pack", "PACK SHADER", "光影", "hader pa", "ader", "pack 光影", "zzz", "k")
    filters = (
        doc_filters(),
        doc_filters(section_code="terraria"),
        doc_filters(resource_type="shader"),
        doc_filters(is_paid=True),
        doc_filters(main_category="graphics"),
        doc_filters(section_code="minecraft", is_paid=False),
    )
    with db.session() as session:
        for keyword, where, order in itertools.product(keywords, filters, ("desc", "asc")):
            expected = tiers.every_match(session, keyword, where, order)
            for window, offset in itertools.product((1, 3, 1000), (0, 5, 40)):
                page, total = tiers.ranked_ids(
                    session, keyword, where, order, offset=offset, page_size=4, window=window
                )
                assert page == expected[offset : offset + 4], (keyword, where, order, window, offset)
                assert total in (None, len(expected)), (keyword, where, order, window, offset)
            for form in ({}, {"broad": True}, {"broad": True, "parts": True}):  # the same counts
                counted = {cap: tier_count.count_matches(keyword, where, cap, **form) for cap in (100, 2)}
                assert count(session, *counted[100]) == len(expected), (keyword, where, form)
                assert count(session, *counted[2]) == min(len(expected), 3), (keyword, where, form)


def count(session, statement, params) -> int:
    """A count_matches statement's count, run in the session."""
    return statement.rows(session, params)[0][0]


def test_tiers_follow_the_documented_order(db, shelf):
    with db.session() as session:
        found = tiers.every_match(session, "shader pack", doc_filters(), "desc")
        partial = tiers.every_match(session, "shader", doc_filters(), "desc")
        names = dict(session.execute(select(P.id, P.main_name).where(P.id.in_(partial))).all())
    kinds = [names[i].split()[0] for i in found]
    # phrase in the titles, words in the titles, in tags, in the introduction (光影包: 'shader' in
    # subName, 'pack' in the introduction): newest first inside each
    assert kinds[:4] == ["Shader"] * 4 and kinds[4:8] == ["Pack"] * 4 and kinds[8:12] == ["Alpha"] * 4
    assert sorted(kinds[12:]) == ["Beta"] * 4 + ["光影包"] * 3
    # a substring outside mainName ('shaderpacks' abbreviation) comes last
    assert [names[i].split()[0] for i in partial[-4:]] == ["Gamma"] * 4
    assert found[:4] == sorted(found[:4], reverse=True)


def test_the_document_copies_follow_resource_post(db, signed, make_post):
    """The filters copied into resource_search_doc change with the post (migration 0013's trigger),
    so the next filtered keyword search sees the change."""
    post = make_post(main_name="Lantern Glow", resource_type="mod", main_categories=["tech"])
    assert ids(get(signed, PATHS[0], keyword="lantern", resourceType="mod", mainCategory="tech")) == [post]
    with db.session() as session:
        session.execute(
            update(P)
            .where(P.id == post)
            .values(
                resource_type="shader", main_categories=["light"], is_paid=True, resource_state="ABANDONED"
            )
        )
        session.commit()
    assert ids(get(signed, PATHS[0], keyword="lantern", resourceType="mod")) == []
    assert ids(
        get(
            signed,
            PATHS[0],
            keyword="lantern",
            resourceType="shader",
            mainCategory="light",
            isPaid="true",
            resourceState="ABANDONED",
        )
    ) == [post]
    with db.session() as session:
        session.execute(update(P).where(P.id == post).values(visibility="PRIVATE"))
        session.commit()
    assert get(signed, PATHS[0], keyword="lantern")["total"] == 0


def test_the_lowered_copies_find_what_ilike_finds_in_the_posts(db, make_post):
    """resource_search_doc holds mainName and the search text lower-cased (migration 0016) and is
    compared by LIKE with the pattern lower-cased by PostgreSQL: the same rows as ILIKE over the
    posts' own columns, for letters whose case changes their length or form, and for wildcards."""
    names = [
        "ÉCLAIR Straße",
        "ΣΟΦΊΑ σοφία",
        "İstanbul Nights",
        "Привет МИР",
        "100%_Pure",
        "光影 Pack",
        "plain",
    ]
    for name in names:
        make_post(main_name=name, introduction=name.upper())
    keywords = [
        "éclair",
        "STRASSE",
        "straße",
        "ΣΟΦ",
        "οφία",
        "istanbul",
        "İST",
        "мир",
        "% _p",
        "0%_",
        "光影 p",
        "ain",
    ]
    with db.session() as session:
        for keyword, own, copy in (
            (keyword, own, copy)
            for keyword in keywords
            for own, copy in (
                (literal_column("resource_post.search_doc", String), D.c.search_doc),
                (P.main_name, D.c.main_name),
            )
        ):
            expected = set(
                session.scalars(
                    select(P.id).where(contains(own, like_pattern(keyword), lowered=False), listed_clause())
                )
            )
            found = set(
                session.scalars(select(D.c.id).where(contains(copy, like_pattern(keyword), lowered=True)))
            )
            assert found == expected, (keyword, own)
        # a keyword whose case differs from the text's is found at all
        assert (
            session.scalar(
                select(func.count()).where(contains(D.c.main_name, like_pattern("ÉCLAIR"), lowered=True))
            )
            == 1
        )


@pytest.mark.parametrize(
    "params",
    [{"keyword": "lantern"}, {"keyword": "lantern", "sort": "downloads"}, {"sectionCode": "minecraft"}],
)
def test_a_total_beyond_the_cap_is_a_lower_bound(signed, make_post, monkeypatch, params):
    """Counting stops past TOTAL_CAP (MAX_OFFSET in production): total is the cap, extData says it
    is not exact, and every counted page can be read."""
    for n in range(5):
        make_post(main_name=f"Lantern {n}", download_count=n)
    monkeypatch.setattr(service, "TOTAL_CAP", 3)
    page = get(signed, PATHS[0], pageSize=2, **params)
    assert (page["total"], page["pages"], page["hasMore"]) == (3, 2, True)
    assert page["extData"] == {"totalExact": False}
    assert len(get(signed, PATHS[0], pageSize=2, pageNum=2, **params)["list"]) == 2
    monkeypatch.setattr(service, "TOTAL_CAP", 5)
    exact = get(signed, PATHS[0], pageSize=2, **params)
    assert exact["total"] == 5 and exact["extData"] is None


def test_the_count_runs_beside_the_page_on_a_committed_database(live_catalogue, monkeypatch):
    """An app bound to an engine counts on a connection of its own, in a counting thread, while the
    request reads the page (models/search/counting.py); the figures equal the in-line count's."""
    live_catalogue.add(5, main_name="Lantern Glow")
    live_catalogue.add(2, main_name="Other")
    monkeypatch.setattr(tiers, "WINDOW", 2)  # the window cannot hold every match: the count is needed
    counted_in, sent = [], []

    def spy(conn, cursor, statement, parameters, context, executemany):
        # the counts are prepared: a keyword's (modhub_search_count_...), the filters' (modhub_browse_count)
        if "EXECUTE modhub_search_count_" in statement or "EXECUTE modhub_browse_count" in statement:
            counted_in.append(threading.current_thread().name)

    def spy_sent(conn, cursor, statement, parameters, context, executemany):  # as sent, after every listener
        if threading.current_thread().name.startswith(counting.THREAD_PREFIX):
            sent.append(statement)

    event.listen(Engine, "before_cursor_execute", spy)
    event.listen(Engine, "after_cursor_execute", spy_sent)
    try:
        page = get(live_catalogue.signed, PATHS[0], keyword="lantern", pageSize=2)
        assert (page["total"], page["pages"], page["extData"]) == (5, 3, None)
        monkeypatch.setattr(service, "TOTAL_CAP", 3)
        for params in ({"keyword": "lantern"}, {"sort": "downloads"}):
            page = get(live_catalogue.signed, PATHS[0], pageSize=2, **params)
            assert (page["total"], page["extData"]) == (3, {"totalExact": False}), params
    finally:
        event.remove(Engine, "before_cursor_execute", spy)
        event.remove(Engine, "after_cursor_execute", spy_sent)
    in_counting_threads = all(name.startswith(counting.THREAD_PREFIX) for name in counted_in)
    assert len(counted_in) == 3 and in_counting_threads, counted_in
    # one round trip a count: its settings for itself, then the count (prepared on the
    # connection's first use), in one implicit transaction
    assert len(sent) == 3, sent
    counts = ("; EXECUTE modhub_search_count_", "; EXECUTE modhub_browse_count")
    assert all(s.startswith(counting.NO_SEQSCAN) and any(c in s for c in counts) for s in sent), sent


def test_the_pages_records_are_read_while_the_count_runs_beside(live_catalogue, monkeypatch):
    """The count beside a keyword search's page is the longest of its reads at a million
    resources: the request reads the page's records before it waits for the count, not after."""
    live_catalogue.add(5, main_name="Lantern Glow")
    monkeypatch.setattr(tiers, "WINDOW", 2)  # the count is needed
    events = []

    def before(conn, cursor, statement, parameters, context, executemany):
        if threading.current_thread().name.startswith(counting.THREAD_PREFIX):
            events.append("count sent")
            time.sleep(0.5)  # a slow count
        elif "modhub_summary_many" in statement:
            events.append("records sent")

    def after(conn, cursor, statement, parameters, context, executemany):
        if threading.current_thread().name.startswith(counting.THREAD_PREFIX):
            events.append("count answered")

    event.listen(Engine, "before_cursor_execute", before)
    event.listen(Engine, "after_cursor_execute", after)
    try:
        page = get(live_catalogue.signed, PATHS[0], keyword="lantern", pageSize=2)
    finally:
        event.remove(Engine, "before_cursor_execute", before)
        event.remove(Engine, "after_cursor_execute", after)
    assert page["total"] == 5 and len(page["list"]) == 2
    assert sorted(events) == ["count answered", "count sent", "records sent"], events
    assert events.index("records sent") < events.index("count answered"), events


def test_a_catalogue_the_window_holds_sends_no_count(live_catalogue, monkeypatch):
    """Where PostgreSQL's estimate puts every search document in the window, a keyword search
    sends no count beside its page: the window counts the matches. A catalogue grown past the
    window since the estimate is counted in line, after the page, to the same total."""
    live_catalogue.add(5, main_name="Lantern Glow")
    live_catalogue.add(2, main_name="Other")
    with live_catalogue.db.engine.begin() as connection:
        connection.exec_driver_sql("ANALYZE resource_search_doc")
    tier_count._documents.clear()
    counted_in = []

    def spy(conn, cursor, statement, parameters, context, executemany):
        if "modhub_search_count_" in statement:
            counted_in.append(threading.current_thread().name)

    event.listen(Engine, "before_cursor_execute", spy)
    try:
        assert get(live_catalogue.signed, PATHS[0], keyword="lantern", pageSize=2)["total"] == 5
        assert counted_in == []
        monkeypatch.setattr(tiers, "WINDOW", 2)  # the 7 documents outgrew the window...
        since = tier_count.Documents(1.0, None)  # ...since the estimate
        tier_count._documents[live_catalogue.db.engine] = (time.monotonic() + 60, since)
        again = get(
            live_catalogue.signed, PATHS[0], keyword="lantern", pageSize=2, isPaid="false"
        )  # not kept
        assert again["total"] == 5
        assert len(counted_in) == 1 and not counted_in[0].startswith(counting.THREAD_PREFIX)
    finally:
        event.remove(Engine, "before_cursor_execute", spy)


def test_a_broad_catalogue_counts_a_keywords_words_first_and_in_parts(live_catalogue, monkeypatch):
    """Past BROAD_FROM documents (PostgreSQL's estimate, kept a minute) a keyword's count starts
    with its words; in parts where ANALYZE finds the rows in postId order (IN_ORDER_FROM) and no
    filter is given, with one index otherwise; the totals are the same."""
    live_catalogue.add(5, main_name="Lantern Glow")
    live_catalogue.add(2, main_name="Lanterns")  # a substring of the keyword alone
    with live_catalogue.db.engine.begin() as connection:
        connection.exec_driver_sql("ANALYZE resource_search_doc")  # the rows' order: correlation 1
    monkeypatch.setattr(tiers, "WINDOW", 2)  # the count is needed
    counts = []

    def spy(conn, cursor, statement, parameters, context, executemany):
        if threading.current_thread().name.startswith(counting.THREAD_PREFIX):
            counts.append(re.search(r"EXECUTE (modhub_search_count_\w+)", statement)[1])

    event.listen(Engine, "before_cursor_execute", spy)
    try:
        # (each keyword written otherwise, which matches the same posts: a total is kept by its keyword)
        for documents, in_order, form, keyword, filters in (
            (10**9, 0.9, "", "lantern", {}),
            (-1, 2.0, "_broad", "Lantern", {}),  # -1: never analyzed
            (-1, 0.9, "_parts", "LANTERN", {}),
            (-1, 0.9, "_broad", "lantern", {"isPaid": "false"}),  # a filter: one index
        ):
            monkeypatch.setattr(tier_count, "BROAD_FROM", documents)
            monkeypatch.setattr(tier_count, "IN_ORDER_FROM", in_order)
            tier_count._documents.clear()
            page = get(live_catalogue.signed, PATHS[0], keyword=keyword, pageSize=2, **filters)
            assert page["total"] == 7, (documents, counts)
            assert re.fullmatch(rf"modhub_search_count_\d+{form}", counts[-1]), (documents, counts)
    finally:
        event.remove(Engine, "before_cursor_execute", spy)


def test_a_broad_count_reads_the_parts_in_turn_and_stops_at_the_cap(db, make_post):
    """A broad catalogue counts a keyword's words over migration 0017's eight partial indexes, one
    part after the other: with the cap reached in the first part, the other parts are never read
    (their bitmaps never built); with no cap reached, every part is read and the count is whole."""
    every_part = tier_count.STRIPE * tier_count.PARTS * 10_000  # far past the test's own ids
    posts = [
        make_post(id=every_part + part * tier_count.STRIPE + n, main_name=f"Lantern {part} {n}")
        for part in range(tier_count.PARTS)
        for n in range(3)
    ]
    with db.session() as session:
        session.execute(text("SET LOCAL enable_seqscan = off"))  # as on the counting connections
        for cap, parts_read in ((2, 1), (100, tier_count.PARTS)):  # each part holds three matches
            statement, params = tier_count.count_matches(
                "lantern", doc_filters(), cap, broad=True, parts=True
            )
            sql = str(statement.select.compile(dialect=session.get_bind().dialect))
            explained = session.connection().exec_driver_sql(f"EXPLAIN (ANALYZE, FORMAT JSON) {sql}", params)
            plan = explained.scalar_one()
            scans = [n for n in nodes(plan[0]["Plan"]) if re.search(r"_tsv_\d$", n.get("Index Name", ""))]
            assert [n["Index Name"] for n in scans] == [
                f"ix_resource_search_doc_tsv_{part}" for part in range(tier_count.PARTS)
            ], sql
            read = [n["Index Name"][-1] for n in scans if n["Actual Loops"]]
            assert len(read) == parts_read, (cap, read)
            assert count(session, statement, params) == min(len(posts), cap + 1)


def nodes(plan: dict) -> list[dict]:
    """A JSON plan's nodes, depth first."""
    return [plan, *(n for child in plan.get("Plans", ()) for n in nodes(child))]


def test_a_count_is_bounded_by_the_apps_statement_time_out(settings, pg_engine):
    """The counting connections hold the statement time-out and the JIT setting the app's own
    connections start with (modhub.db.connect_args), set for each count's own transaction, and
    the app's application_name."""
    db = Database.from_settings(
        settings.replace(db_statement_timeout_seconds=0.2, db_application_name="modhub-count-test")
    )
    try:
        _, counting_engine = counting._counting(db.engine)
        assert counting._scalar(counting_engine, select(func.current_setting("jit"))) == "off"
        name = select(func.current_setting("application_name"))
        assert counting._scalar(counting_engine, name) == "modhub-count-test"
        with pytest.raises(OperationalError, match="statement timeout"):
            counting._scalar(counting_engine, select(func.pg_sleep(2)))
    finally:
        db.engine.dispose()


def test_a_count_turns_sequential_scans_off_for_itself_only(live_catalogue):
    """The counting connection counts in autocommit, with sequential scans off for that statement
    alone (and the app's statement time-out and JIT setting): the connection itself keeps
    PostgreSQL's settings (a pooler may hand it on)."""
    engine = live_catalogue.db.engine
    executor, counting_engine = counting._counting(engine)
    setting = select(func.current_setting("enable_seqscan"))
    assert executor.submit(counting._scalar, counting_engine, setting).result() == "off"
    with counting_engine.connect() as connection:
        raw = connection.connection.dbapi_connection
        assert raw.autocommit
        with raw.cursor() as cursor:  # past the engine's listeners: as the server holds it
            cursor.execute("SHOW enable_seqscan")
            assert cursor.fetchone()[0] == "on"


def test_a_keyword_search_sends_the_same_prepared_statements_whatever_its_filters(
    live_catalogue, monkeypatch
):
    """A keyword search's statements are prepared per shape of keyword and direction, each filter
    in them as an optional condition (models/search/filters.py), and planned for their values
    (force_custom_plan): a new combination of filters prepares nothing new, and each filters."""
    monkeypatch.setattr(tiers, "WINDOW", 1)  # every tier read past the window, and the count awaited
    mod = live_catalogue.add(1, main_name="Lantern Glow", resource_type="mod", main_categories=["tech"])
    shader = live_catalogue.add(1, main_name="Lantern Light", resource_type="shader", is_paid=True)
    sent: dict[str, set[str]] = {}

    def spy(conn, cursor, statement, parameters, context, executemany):
        for name in re.findall(r"EXECUTE (modhub_search_\w+)", statement):
            sent.setdefault(name, set()).add(statement.split("; ", 1)[0] + "; ")

    combinations = [
        ({}, mod + shader),
        ({"resourceType": "mod"}, mod),
        ({"resourceType": "shader", "isPaid": "true"}, shader),
        ({"mainCategory": "tech", "isPaid": "false"}, mod),
        ({"sectionCode": "terraria"}, []),
    ]
    names = []
    event.listen(Engine, "before_cursor_execute", spy)
    try:
        for params, expected in combinations:
            sent.clear()
            found = get(live_catalogue.signed, PATHS[0], keyword="lantern", **params)
            assert sorted(ids(found)) == sorted(expected), params
            names.append(set(sent))
    finally:
        event.remove(Engine, "before_cursor_execute", spy)
    # a word, and a substring of a longer word: shape 101 (Tiers.shaped), five tiers
    tier_reads = {f"modhub_search_tier{n}_101_d" for n in range(1, 6)}
    assert names[0] == {"modhub_search_window_101_d", "modhub_search_count_101", *tier_reads}, names[0]
    assert all(n == names[0] for n in names), names
    assert {prefix for prefixes in sent.values() for prefix in prefixes} <= {CUSTOM, counting.NO_SEQSCAN}


def test_with_prepared_statements_off_a_keyword_search_sends_its_selects(live_catalogue):
    """Behind a pooler (MODHUB_DB_PREPARED_STATEMENTS=off) a keyword search's statements, its
    count on the counting connections included, are sent as SELECTs with their values, and the
    filters not given fold away there too."""
    glow = live_catalogue.add(1, main_name="Lantern Glow", resource_type="mod")
    live_catalogue.add(1, main_name="Lantern Light", resource_type="shader")
    engine = live_catalogue.db.engine.execution_options(**{PREPARE_OPTION: False})
    sent: list[str] = []

    def spy(conn, cursor, statement, parameters, context, executemany):
        sent.append(statement)

    event.listen(Engine, "after_cursor_execute", spy)  # as sent, after every listener
    try:
        with Session(engine) as session:
            mods = doc_filters(resource_type="mod")
            page, total = tiers.ranked_ids(session, "lantern", mods, "desc", offset=0, page_size=20)
            count = counting.count_beside(session, *tier_count.count_matches("lantern", mods, 100))()
    finally:
        event.remove(Engine, "after_cursor_execute", spy)
    assert (page, total, count) == (glow, 1, 1)
    assert sent and not any("PREPARE" in s or "EXECUTE" in s for s in sent), sent
    assert any(s.startswith(counting.NO_SEQSCAN) for s in sent), sent  # the count, beside
