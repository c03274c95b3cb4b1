"""Engine and sessions: one session and one commit point per request."""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass

from sqlalchemy import create_engine, event
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.exc import ArgumentError, NoSuchModuleError
from sqlalchemy.orm import Session, sessionmaker


@dataclass
class Database:
    """An engine and its session factory; tests build one bound to a rolled-back connection."""

    engine: Engine
    sessions: sessionmaker

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
        engine = create_engine(url, **engine_options)
        if url.startswith("sqlite"):
            event.listen(engine, "connect", _sqlite_pragmas)
        return cls(engine, sessionmaker(engine, expire_on_commit=False))

    def session(self) -> Session:
        """A new session."""
        return self.sessions()


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
