"""Engine and sessions: one session and one commit point per request."""

from __future__ import annotations

import importlib.util
import math
import select
import threading
import time
from dataclasses import dataclass

from sqlalchemy import create_engine, event
from sqlalchemy.engine import Connection, Engine, make_url
from sqlalchemy.exc import ArgumentError, NoSuchModuleError
from sqlalchemy.orm import Session, sessionmaker

from modhub import jsontext
from modhub.core.statements import PREPARE_OPTION


@dataclass
class Database:
    """An engine and its session factory; tests build one bound to a rolled-back connection.

    `reads`, on PostgreSQL: ReadSessions, for the handlers that only read (modhub.web.reads_only).
    Where it is None (SQLite, the tests' rolled-back connection), reads take ordinary sessions.
    `lease`: the connections threads keep for their leased read sessions (None: not kept, as
    with pre-ping, which checks each checkout)."""

    engine: Engine
    sessions: sessionmaker
    reads: sessionmaker | None = None
    lease: Lease | None = None

    @classmethod
    def from_settings(cls, settings) -> Database:
        """The database of the settings, its pool and waits sized by them (PostgreSQL)."""
        if settings.embedded:
            return cls.from_url(settings.database_url)
        db = cls.from_url(
            settings.database_url,
            pool_size=settings.db_pool_size,
            max_overflow=settings.db_max_overflow,
            pool_timeout=settings.db_pool_timeout_seconds,
            pool_pre_ping=settings.db_pre_ping,
            connect_args=connect_args(settings),
            execution_options={PREPARE_OPTION: settings.db_prepared_statements},
        )
        from modhub import metrics

        metrics.watch_pool(db.engine, settings.db_pool_size)
        return db

    @classmethod
    def from_url(cls, url: str, **engine_options) -> Database:
        """Open the database named by a SQLAlchemy URL (PostgreSQL or the embedded SQLite)."""
        url = database_url(url)
        if url.startswith("sqlite"):
            engine_options.setdefault("connect_args", {"check_same_thread": False})
        else:
            engine_options.setdefault("pool_size", 10)
            engine_options.setdefault("max_overflow", 20)
            engine_options.setdefault("pool_recycle", 1800)  # no pre-ping: it doubles round trips
        # JSON columns (and json_agg's lists) parsed by orjson: psycopg2 takes it per connection
        engine_options.setdefault("json_deserializer", jsontext.loads)
        engine = create_engine(url, **engine_options)
        if url.startswith("sqlite"):
            event.listen(engine, "connect", _sqlite_pragmas)
            return cls(engine, sessionmaker(engine, expire_on_commit=False))
        event.listen(engine, "checkin", _transactional)
        reads = sessionmaker(engine, class_=ReadSession, expire_on_commit=False)
        lease = None if engine_options.get("pool_pre_ping") else Lease(engine_options["pool_recycle"])
        return cls(engine, sessionmaker(engine, expire_on_commit=False), reads, lease)

    def session(self) -> Session:
        """A new session."""
        return self.sessions()

    def read_session(self, *, leased: bool = False) -> Session:
        """A new session for reads alone (a ReadSession where the database has `reads`). leased:
        for a thread that serves requests one after another (the handlers' pool), whose read
        sessions keep one connection between them (ReadSession)."""
        if self.reads is None:
            return self.sessions()
        return self.reads(lease=self.lease if leased else None)


class _Kept(threading.local):
    connection: tuple[Connection | None, float] = (None, 0.0)  # a thread's, and since when


class Lease:
    """Each thread's connection for its leased read sessions, kept between them (as Django keeps
    one per thread): the pool's checkout and checkin were a quarter of a cold detail read's
    client-side CPU (66 µs with them, 50 µs without, in process). A thread takes a fresh one after
    `seconds` (the pool's recycle time) and after a failure that lost it; while kept, the pool
    counts it as in use."""

    def __init__(self, seconds: float):
        self.seconds = seconds
        self.kept = _Kept()

    def get(self) -> Connection | None:
        """The thread's kept connection, or None (none yet, lost, or older than `seconds`)."""
        conn, since = self.kept.connection
        if conn is not None and (conn.invalidated or time.monotonic() - since > self.seconds):
            self.drop()
            conn.close()
            return None
        return conn

    def keep(self, conn: Connection) -> None:
        self.kept.connection = (conn, time.monotonic())

    def holds(self, conn: Connection) -> bool:
        return self.kept.connection[0] is conn

    def drop(self) -> None:
        self.kept.connection = (None, 0.0)


class ReadSession(Session):
    """A session that only reads, on PostgreSQL: one connection in autocommit, taken at its first
    statement and given back at close (or kept for the next read session of its thread: Lease).

    A request's SELECT is then its one round trip, with no BEGIN before it and no ROLLBACK when
    the connection goes back to the pool. psycopg2's `autocommit` is a client-side flag
    (SQLAlchemy's isolation-level switch would cost a round trip at checkout and another at
    checkin); the pool's checkin puts it back off, so the next session of the pool gets a
    transaction as always. A prepared read (modhub.core.statements) asks for `connection()` and
    gets that connection as it is, without the Session's transaction machinery around it (a cold
    detail's read took 95 µs of CPU through it, 60 µs without, in process); an ORM statement runs
    in the Session's own transaction, bound to that same connection, so a request never holds
    two."""

    _checked_out: Connection | None = None

    def __init__(self, *args, lease: Lease | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self._lease = lease

    def connection(self, bind_arguments=None, execution_options=None) -> Connection:
        if bind_arguments or execution_options or self.in_transaction():
            return super().connection(bind_arguments, execution_options)
        return self._connection()

    def _connection_for_bind(self, engine, execution_options=None, **kw) -> Connection:
        # Session's one way to a connection (its statements, connection()): the checked-out one
        return super()._connection_for_bind(self._connection(), execution_options, **kw)

    def _connection(self) -> Connection:
        conn = self._checked_out
        if conn is None:
            conn = self._lease.get() if self._lease is not None else None
            if conn is None:
                engine = self.get_bind()
                assert isinstance(engine, Engine)  # a sessionmaker of the engine's (Database.from_url)
                conn = engine.connect()
                conn.connection.dbapi_connection.autocommit = True  # type: ignore[union-attr]
                if self._lease is not None:
                    self._lease.keep(conn)
            self._checked_out = conn
        return conn

    def close(self) -> None:
        try:
            super().close()
        finally:
            self._give_back(invalidate=False)

    def invalidate(self) -> None:
        try:
            super().invalidate()
        finally:
            self._give_back(invalidate=True)

    def _give_back(self, *, invalidate: bool) -> None:
        conn, self._checked_out = self._checked_out, None
        if conn is None:
            return
        if invalidate:
            conn.invalidate()
        if self._lease is not None and self._lease.holds(conn):
            if not conn.invalidated and not conn.in_transaction():  # as clean as it was taken
                return
            self._lease.drop()
        conn.close()


def _transactional(dbapi_connection, _record) -> None:
    """Back in the pool: autocommit off again (client-side; a closed connection has none)."""
    if dbapi_connection is not None and getattr(dbapi_connection, "autocommit", False):
        dbapi_connection.autocommit = False


def connect_args(settings) -> dict:
    """libpq options of the settings: connect time-out, statement time-out, application name; and
    no JIT compilation. PostgreSQL compiles a statement whose estimated cost passes jit_above_cost
    (100,000 by default), which an estimate can pass where the run is short: a sync page's generic
    plan (its LIMIT a parameter) is estimated at 313,000 at a million resources and ran in 0.4 ms,
    after 57 ms of compiling, on every page. No read of this API is long enough to gain from it."""
    if settings.embedded:
        return {}
    return {
        "connect_timeout": max(1, math.ceil(settings.db_connect_timeout_seconds)),
        "application_name": settings.db_application_name,
        "options": f"-c statement_timeout={int(settings.db_statement_timeout_seconds * 1000)} -c jit=off",
    }


def bound_waits(*, connect_seconds: float, query_seconds: float) -> None:
    """Bound every wait of this process on PostgreSQL on the client side too.

    statement_timeout is enforced by the server: a server that stopped answering (a hung host,
    a stopped process, a dropped network path) would hold a request forever. psycopg2's wait
    callback makes each connect and each query wait in select() with a deadline; past it the
    connection is closed and an OperationalError raised (a 503 / 200503 for the request).
    Installed by the serving and worker processes only (it is process-wide).
    """
    import psycopg2
    import psycopg2.extensions as ext

    def wait(conn) -> None:
        limit = connect_seconds if conn.status == ext.STATUS_SETUP else query_seconds
        deadline = time.monotonic() + limit
        while True:
            state = conn.poll()
            if state == ext.POLL_OK:
                return
            left = deadline - time.monotonic()
            if left <= 0:
                raise psycopg2.OperationalError(f"the database did not answer within {limit:g} s")
            if state == ext.POLL_READ:
                select.select([conn.fileno()], [], [], left)
            elif state == ext.POLL_WRITE:
                select.select([], [conn.fileno()], [], left)
            else:
                raise psycopg2.OperationalError(f"unexpected connection state {state}")

    ext.set_wait_callback(wait)


def _sqlite_pragmas(dbapi_conn, _record) -> None:
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA busy_timeout=5000")
    cur.close()


# PostgreSQL drivers in order of preference: the one setup.cfg installs first. A bare
# postgresql:// means psycopg (3) to SQLAlchemy 2.1 and psycopg2 to 2.0: name it explicitly.
_PG_DRIVERS = (("psycopg2", "psycopg2"), ("psycopg", "psycopg"))


def database_url(url: str) -> str:
    """The URL with its PostgreSQL driver made explicit (postgres:// and postgresql:// take the
    installed one); ValueError with a one-line reason when the URL cannot be used."""
    if url.startswith("postgres://"):
        url = "postgresql://" + url[len("postgres://") :]
    try:
        parsed = make_url(url)
    except ArgumentError:
        raise ValueError(
            "is not a database URL (e.g. postgresql://user@host/db or sqlite:///path/modhub.db)"
        ) from None
    if parsed.drivername == "postgresql":
        driver = next((d for d, module in _PG_DRIVERS if importlib.util.find_spec(module)), None)
        if driver is None:
            raise ValueError("names PostgreSQL but no driver is installed (pip install psycopg2-binary)")
        parsed = parsed.set(drivername=f"postgresql+{driver}")
        url = parsed.render_as_string(hide_password=False)
    if parsed.get_backend_name() not in ("postgresql", "sqlite"):
        raise ValueError(f"names {parsed.drivername!r}: modhub runs on postgresql:// or sqlite:///")
    try:
        parsed.get_dialect().import_dbapi()
    except NoSuchModuleError:
        raise ValueError(f"names an unknown driver {parsed.drivername!r}") from None
    except ImportError as exc:
        raise ValueError(f"needs the missing driver module {exc.name!r}") from None
    return url
