"""Engine and sessions: one session and one commit point per request."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import create_engine, event
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session, sessionmaker


@dataclass
class Database:
    """An engine and its session factory; tests build one bound to a rolled-back connection."""

    engine: Engine
    sessions: sessionmaker

    @classmethod
    def from_url(cls, url: str, **engine_options) -> Database:
        """Open the database named by a SQLAlchemy URL (PostgreSQL or the embedded SQLite)."""
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
