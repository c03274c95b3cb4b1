"""PostgreSQL statements prepared once per connection (modhub.core.statements.Prepared): what is sent,
that the plan is PostgreSQL's generic one after a few runs, that the rows are the Select's own,
and what happens when the prepared statement or the connection is gone."""

from __future__ import annotations

import datetime as dt
import threading

import psycopg2
import pytest
from sqlalchemy import (
    BigInteger,
    Column,
    DateTime,
    Integer,
    MetaData,
    Table,
    bindparam,
    cast,
    column,
    create_engine,
    event,
    func,
    select,
    text,
)
from sqlalchemy.exc import DBAPIError

from models.catalog.reads import _prepared_by_ids
from models.catalog.stats import window_days
from models.catalog.tables import ResourcePost
from models.search.backends import backend_for
from models.search.sync import sync
from models.types import TIMESTAMPTZ_OID, UTCDateTime
from modhub.core.display import Display
from modhub.core.statements import GENERIC, PREPARE_OPTION, PREPARED, Prepared
from modhub.db import Database
from modhub.errors_http import database_unavailable
from modhub.settings import from_env
from tests.helpers.env import PG_URL

N = bindparam("n", type_=Integer)
SERIES = Prepared(
    "modhub_test_series",
    select(
        func.generate_series(1, N).label("i"),
        cast(bindparam("at", type_=UTCDateTime), UTCDateTime).label("at"),
        cast(select(func.count(ResourcePost.id)).scalar_subquery(), BigInteger).label("posts"),
    ),
)
AT = dt.datetime(2026, 11, 26, 8, 30, tzinfo=dt.UTC)


@pytest.fixture()
def database(pg_engine):
    """One pooled connection (every session reuses it), its statements' first words recorded."""
    db = Database.from_url(PG_URL, pool_size=1, max_overflow=0)
    db.sent = []
    event.listen(db.engine, "before_cursor_execute", lambda *a: db.sent.append(a[2]))
    yield db
    db.engine.dispose()


def words(sent: list[str]) -> list[str]:
    """The first word of each statement sent, after the generic-plan prefix of a read session's."""
    return [s.removeprefix(GENERIC).split(None, 1)[0] for s in sent]


def rows(db: Database, statement: Prepared = SERIES, **params):
    with db.read_session() as session:
        return statement.rows(session, params)


def test_prepared_on_a_connection_once_then_executed_by_name(database):
    with database.read_session() as session:
        plain = [tuple(r) for r in session.execute(SERIES.select, {"n": 3, "at": AT}).all()]
    database.sent.clear()
    assert rows(database, n=3, at=AT) == plain == [(i, AT, 0) for i in (1, 2, 3)]
    assert rows(database, n=2, at=AT) == plain[:2]
    first, second = database.sent  # a read session's: planned generically, one query string
    assert first.startswith(
        GENERIC + "PREPARE modhub_test_series (INTEGER, TIMESTAMP WITH TIME ZONE) AS SELECT"
    )
    assert first.endswith("; EXECUTE modhub_test_series(%s, %s)")
    assert second == GENERIC + "EXECUTE modhub_test_series(%s, %s)"
    assert rows(database, n=1, at=AT)[0][1] == AT  # zone-aware (UTCDateTime)


def test_a_timestamptz_row_needs_no_processing_and_a_naive_timestamp_gets_utc(database):
    """UTCDateTime processes no timestamptz on PostgreSQL (psycopg2 gives it zone-aware), so a
    prepared page's rows come back unprocessed; a naive `timestamp` typed so is still made UTC."""
    dialect = database.engine.dialect
    assert UTCDateTime()._cached_result_processor(dialect, TIMESTAMPTZ_OID) is None
    assert rows(database, n=1, at=AT)[0][1] == AT
    naive = text("SELECT TIMESTAMP '2026-11-26 08:30:00' AS at").columns(column("at", UTCDateTime()))
    with database.read_session() as session:
        assert session.execute(naive).scalar_one() == AT


def test_postgresql_plans_a_catalogue_read_once_then_keeps_its_generic_plan(database):
    detail = _prepared_by_ids(True, True, True)
    today = dt.date(2026, 11, 26)
    windows = {"since_24h": today, "since_7d": today, "since_30d": today, "today": today}
    for post_id in range(1, 9):
        assert rows(database, detail, post_id=post_id, **windows) == []
    with database.read_session() as session:
        generic, custom = session.execute(
            text("SELECT generic_plans, custom_plans FROM pg_prepared_statements WHERE name = :n"),
            {"n": detail.name},
        ).one()
    assert custom <= 5 and generic >= 3


def test_read_sessions_plan_a_prepared_read_once_and_change_nothing_else(pg_engine, settings):
    """A feed page's LIMIT parameter makes PostgreSQL's auto mode plan it anew every time: a read
    session's EXECUTE forces the generic plan for itself alone (SET LOCAL, one implicit
    transaction); the connection stays in the auto mode, and so does a read in a transaction."""
    db = Database.from_settings(settings.replace(db_pool_size=1, db_max_overflow=0))
    try:
        for _ in range(3):
            with db.read_session() as session:
                sync(session, display=Display(time_zone="UTC"), size=5)
        with db.session() as session:  # in a transaction: the automatic mode, left as it is
            sync(session, display=Display(time_zone="UTC"), size=5)
            assert session.scalar(text("SHOW plan_cache_mode")) == "auto"
        with db.read_session() as session:
            assert session.scalar(text("SHOW plan_cache_mode")) == "auto"
            generic, custom = session.execute(
                text("SELECT generic_plans, custom_plans FROM pg_prepared_statements WHERE name = :n"),
                {"n": "modhub_sync_page_postgresql"},
            ).one()
        assert (generic, custom) == (3, 1)
    finally:
        db.engine.dispose()


def test_a_statement_dropped_behind_the_pool_is_prepared_again(database):
    assert len(rows(database, n=2, at=AT)) == 2
    with database.read_session() as session:
        session.connection().exec_driver_sql("DEALLOCATE ALL")
    database.sent.clear()
    assert len(rows(database, n=2, at=AT)) == 2  # autocommit: prepared again at once
    assert words(database.sent) == ["EXECUTE", "PREPARE"]
    with database.read_session() as session:
        session.connection().exec_driver_sql("DEALLOCATE ALL")
    with database.session() as session:  # in a transaction: that one fails, the next prepares
        with pytest.raises(DBAPIError) as caught:
            SERIES.rows(session, {"n": 1, "at": AT})
        assert isinstance(caught.value.orig, psycopg2.errors.InvalidSqlStatementName)
    assert len(rows(database, n=2, at=AT)) == 2


def test_a_lost_connection_is_a_database_error_and_the_next_read_reconnects(database):
    assert len(rows(database, n=1, at=AT)) == 1
    with database.read_session() as session:
        pid = session.scalar(text("SELECT pg_backend_pid()"))
    killer = create_engine(PG_URL)
    with killer.connect() as conn:
        conn.execute(text("SELECT pg_terminate_backend(:p)"), {"p": pid})
    killer.dispose()
    with pytest.raises(DBAPIError) as caught:
        rows(database, n=1, at=AT)
    assert caught.value.connection_invalidated and database_unavailable(caught.value)
    database.sent.clear()
    assert len(rows(database, n=1, at=AT)) == 1  # a new connection: prepared there
    assert words(database.sent) == ["PREPARE"]


def test_off_for_a_pooler_the_select_is_sent_as_it_is(pg_engine, settings, monkeypatch):
    monkeypatch.setenv("MODHUB_DB_PREPARED_STATEMENTS", "off")
    assert from_env().db_prepared_statements is False
    db = Database.from_settings(settings.replace(db_prepared_statements=False, db_pool_size=1))
    assert db.engine.get_execution_options()[PREPARE_OPTION] is False
    sent: list[str] = []
    event.listen(db.engine, "before_cursor_execute", lambda *a: sent.append(a[2]))
    try:
        assert rows(db, n=2, at=AT) == [(1, AT, 0), (2, AT, 0)]
        assert sent and sent[0].startswith("SELECT")
    finally:
        db.engine.dispose()


def test_an_expanding_in_is_refused_it_would_never_get_a_generic_plan(database):
    expanding = Prepared(
        "modhub_test_expanding",
        select(ResourcePost.id).where(ResourcePost.id.in_(bindparam("ids", expanding=True))),
    )
    with pytest.raises(ValueError, match="ANY"):
        rows(database, expanding, ids=[1])
    with pytest.raises(ValueError, match="named modhub_test_series already"):
        Prepared("modhub_test_series", select(cast(N, DateTime)))
    again = Prepared("modhub_test_series", SERIES.select)  # built twice at once by two threads
    assert rows(database, again, n=1, at=AT) == rows(database, n=1, at=AT)


def test_threads_building_the_feed_statement_at_once_all_get_it(database, monkeypatch):
    """A served process's first feed pages arrive together: each thread may build the statement."""
    from models.search import sync as feed
    from modhub.core import statements

    monkeypatch.setattr(feed, "_CHANGES", {})
    monkeypatch.setattr(statements, "REGISTRY", {})
    inside, built, failed = threading.Barrier(8), [], []
    page = feed.summary_page

    def all_inside(*args, **kwargs):  # every thread found no statement and builds its own
        inside.wait()
        return page(*args, **kwargs)

    monkeypatch.setattr(feed, "summary_page", all_inside)

    def build() -> None:
        with database.read_session() as session:
            backend = backend_for(session)
            try:
                built.append(feed._changes(session, backend))
            except Exception as exc:  # noqa: BLE001 - what the test looks for
                failed.append(exc)

    threads = [threading.Thread(target=build) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failed == [] and len(built) == 8


def test_equal_statements_made_apart_send_one_text_under_their_name(database):
    """Threads making a lazily made statement at once each make their own Select (a served
    process's first details: models.catalog.reads._prepared_by_ids). Equal Selects may number
    their parameters differently (the first walk over the elements they share differs from the
    later ones): a connection that prepared one must never be sent the other's arguments."""
    made = [_prepared_by_ids.__wrapped__(True, True, True) for _ in range(8)]
    params = {"post_id": 1, **window_days(dt.date(2026, 11, 27))}
    failed: list[Exception] = []
    inside = threading.Barrier(len(made))

    def run(statement: Prepared) -> None:
        inside.wait()
        try:
            assert rows(database, statement, **params) == []  # one pooled connection for all
        except Exception as exc:  # noqa: BLE001 - what the test looks for
            failed.append(exc)

    threads = [threading.Thread(target=run, args=(statement,)) for statement in made]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failed == []
    assert len({id(statement._built) for statement in made}) == 1
    assert words(database.sent).count("PREPARE") == 1


def test_a_statement_whose_table_changed_or_that_the_process_lost_is_prepared_afresh(database):
    with database.read_session() as session:
        session.connection().exec_driver_sql("CREATE TEMP TABLE modhub_changing (a integer)")
        session.connection().exec_driver_sql("INSERT INTO modhub_changing VALUES (7)")
    changing = Table("modhub_changing", MetaData(), Column("a", Integer))
    statement = Prepared("modhub_test_changing", select(changing.c.a))
    assert rows(database, statement) == [(7,)]
    with database.read_session() as session:  # a migration under a running server
        session.connection().exec_driver_sql("ALTER TABLE modhub_changing ALTER a TYPE text")
    database.sent.clear()
    assert rows(database, statement) == [("7",)]
    assert words(database.sent) == ["EXECUTE", "DEALLOCATE"]
    with database.read_session() as session:  # held by the connection, unknown to the process
        session.connection().connection.info[PREPARED].clear()
    database.sent.clear()
    assert rows(database, statement) == [("7",)]
    assert words(database.sent) == ["PREPARE", "DEALLOCATE"]
