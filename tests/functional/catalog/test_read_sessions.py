"""Handlers registered as reads only (modhub.web.reads_only) take autocommit sessions on
PostgreSQL (Database.read_session): each SELECT is its own round trip, with no BEGIN before it and
no ROLLBACK after, and those sessions never execute anything but SELECTs."""

from __future__ import annotations

import datetime as dt
from concurrent.futures import ThreadPoolExecutor

import psycopg2.extensions
import pytest
from sqlalchemy import event, func, select
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError

from models.catalog.queries import listed_clause
from models.catalog.reads import _prepared_by_ids
from models.catalog.stats import window_days
from models.catalog.tables import ResourcePost
from models.identity import applications
from modhub import web
from modhub.app import create_app
from modhub.core.statements import PLANS
from modhub.db import Database
from modhub.seed import seed_cli
from tests.helpers.env import PG_URL, RUN_PG_URL
from tests.support import Creds, SignedClient, drop_database, migrated_database


@pytest.fixture()
def reads_database():
    url = make_url(PG_URL)  # this worker's: xdist workers never share it
    url = url.set(database=f"{url.database}_reads").render_as_string(hide_password=False)
    migrated_database(url, RUN_PG_URL)
    yield url
    drop_database(url)


def test_a_read_session_is_autocommit_and_leaves_no_transaction_open(reads_database):
    db = Database.from_url(reads_database, pool_size=1, max_overflow=0)  # one connection, reused
    try:
        with db.read_session() as session:
            assert session.scalar(select(1)) == 1
            raw = session.connection().connection.dbapi_connection
            assert raw.autocommit is True
            assert raw.info.transaction_status == psycopg2.extensions.TRANSACTION_STATUS_IDLE
        with db.session() as session:  # the same connection, back in a transaction for the next
            session.scalar(select(1))
            raw = session.connection().connection.dbapi_connection
            assert raw.autocommit is False
            assert raw.info.transaction_status == psycopg2.extensions.TRANSACTION_STATUS_INTRANS
    finally:
        db.engine.dispose()


def test_a_read_session_holds_one_connection_for_its_prepared_reads_and_its_statements(reads_database):
    # a pool of one that never waits: a second checkout by the session would raise
    db = Database.from_url(reads_database, pool_size=1, max_overflow=0, pool_timeout=0.5)
    detail = _prepared_by_ids(True, True, True)  # the cold detail's statement
    params = {"post_id": 1} | window_days(dt.date(2026, 11, 27))
    checkouts: list[object] = []
    event.listen(db.engine, "checkout", lambda dbapi, record, proxy: checkouts.append(dbapi))
    try:
        with db.read_session() as session:
            assert detail.rows(session, params) == []  # the connection as it is, outside a transaction
            assert not session.in_transaction()
            raw = session.connection().connection.dbapi_connection
            assert raw.autocommit is True
            assert session.scalar(select(func.count()).select_from(ResourcePost)) == 0  # the ORM's own
            assert session.in_transaction()  # ... transaction, on that same connection
            assert detail.rows(session, params) == []
            assert session.connection().connection.dbapi_connection is raw
            assert raw.info.transaction_status == psycopg2.extensions.TRANSACTION_STATUS_IDLE
        assert len(checkouts) == 1
        with db.session() as session:  # given back, in a transaction again for the next
            session.scalar(select(1))
            assert session.connection().connection.dbapi_connection is raw and raw.autocommit is False
        with db.read_session() as session:  # a read session that reads nothing takes nothing
            pass
        assert len(checkouts) == 2
    finally:
        db.engine.dispose()


def test_the_read_handlers_execute_selects_only_on_autocommit_connections(reads_database, settings):
    import handlers.resources
    import handlers.search

    assert {
        handlers.resources.get_detail,
        handlers.resources.get_batch,
        handlers.search.search,
        handlers.search.sync,
    } <= web.READS_ONLY
    app = create_app(settings.replace(database_url=reads_database, record_cache_seconds=0))
    platform = app.app.extensions["modhub"]
    try:
        seed_cli(platform, resources=30)
        with platform.db.session() as s, s.begin():
            made = applications.create(s, platform.secrets, name="reads", approve=True)
            ids = list(s.scalars(select(ResourcePost.id).where(listed_clause()).limit(5)))
        executed: list[str] = []  # the first word of each statement on a read session's connection

        def seen(conn, cursor, statement, parameters, context, executemany):
            if cursor.connection.autocommit:  # a read session's (the others run in transactions)
                for plan in PLANS.values():  # a prepared read's plan mode, for itself
                    statement = statement.removeprefix(plan)
                if statement.startswith("PREPARE "):  # a prepared SELECT (modhub.core.statements)
                    statement = statement.split(" AS ", 1)[1]
                executed.append(statement.lstrip().split(None, 1)[0].upper())

        event.listen(platform.db.engine, "before_cursor_execute", seen)
        with app.test_client() as client:
            signed = SignedClient(client, Creds(made.app_id, made.api_key, made.secret_key))
            answers = [
                signed.get(f"/openapi/v2/mods/{ids[0]}"),
                signed.post("/openapi/v2/mods", json={"postIds": ids}),
                signed.get("/openapi/v2/mods/search", params={"keyword": "mod", "pageSize": 5}),
                signed.get(
                    "/openapi/v2/mods/search", params={"sectionCode": "minecraft", "sort": "downloads"}
                ),
                signed.get("/openapi/v2/mods/sync", params={"size": 10}),
            ]
        assert [a.status_code for a in answers] == [200] * 5
        assert all(a.json()["code"] == 0 for a in answers)
        assert len(executed) >= 5  # every one of the five read on a read session
        assert set(executed) <= {"SELECT", "WITH", "EXECUTE"}, executed
    finally:
        platform.db.engine.dispose()


def test_a_handler_threads_read_sessions_keep_its_connection_between_requests(reads_database):
    db = Database.from_url(reads_database, pool_size=2, max_overflow=0, pool_timeout=0.5)
    detail = _prepared_by_ids(True, True, True)
    params = {"post_id": 1} | window_days(dt.date(2026, 11, 27))
    checkouts: list[object] = []
    event.listen(db.engine, "checkout", lambda dbapi, record, proxy: checkouts.append(dbapi))

    def read() -> object:
        with db.read_session(leased=True) as session:
            assert detail.rows(session, params) == []
            session.scalar(select(1))  # an ORM statement: the same connection, its transaction ended
            return session.connection().connection.dbapi_connection

    try:
        first = read()
        assert read() is first and len(checkouts) == 1  # kept by this thread, not checked in
        assert first.autocommit
        assert first.info.transaction_status == psycopg2.extensions.TRANSACTION_STATUS_IDLE
        with db.session() as session:  # a write session of the same thread: the pool's other one
            session.scalar(select(1))
            assert session.connection().connection.dbapi_connection is not first
        with ThreadPoolExecutor(1) as other:  # another thread: a connection of its own
            assert other.submit(read).result() is not first
        assert len(checkouts) == 3
        first.close()  # a connection lost meanwhile (a restarted server): the read fails once ...
        with pytest.raises(DBAPIError), db.read_session(leased=True) as session:
            detail.rows(session, params)
        assert read() is not first  # ... and the next one takes a fresh connection
    finally:
        db.engine.dispose()
