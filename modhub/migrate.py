"""Run the Alembic migrations programmatically (used by the CLI, the server's start and the tests).

`upgrade` and `downgrade` hold a lock while they run, so that several hosts starting at once
migrate once and all succeed: a PostgreSQL advisory lock (taken in the migration's own
transaction), or an exclusive lock on a file beside the embedded SQLite database.
"""

from __future__ import annotations

import contextlib
import fcntl
import functools
from dataclasses import dataclass
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from alembic.util import CommandError
from sqlalchemy import create_engine, make_url, text
from sqlalchemy.pool import NullPool

MIGRATIONS = Path(__file__).resolve().parent.parent / "migrations"
LOCK_KEY = 0x6D6F646875620001  # pg_advisory_xact_lock key of the migrations ("modhub" + 1)


def alembic_config(url: str, connection=None) -> Config:
    """An Alembic config pointing at our migrations and the given database."""
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    if connection is not None:
        cfg.attributes["connection"] = connection
    return cfg


@functools.lru_cache(maxsize=1)
def scripts() -> ScriptDirectory:
    """The code's migration scripts, read once per process."""
    return ScriptDirectory.from_config(alembic_config("sqlite://"))


def code_heads() -> frozenset[str]:
    """The revisions the code expects the database to be at."""
    return frozenset(scripts().get_heads())


@dataclass(frozen=True)
class SchemaState:
    """Where a database stands against the code's migrations."""

    current: frozenset[str]
    heads: frozenset[str]
    unknown: frozenset[str]  # revisions in the database that this code does not know (ahead)

    @property
    def status(self) -> str:
        """current, behind, ahead or empty (never migrated)."""
        if self.unknown:
            return "ahead"
        if not self.current:
            return "empty"
        return "current" if self.current == self.heads else "behind"

    def describe(self) -> str:
        """One line for an operator."""
        at = ", ".join(sorted(self.current)) or "no revision"
        want = ", ".join(sorted(self.heads))
        return {
            "current": f"database schema is at {at}, the code's revision",
            "empty": f"database has no schema (the code needs {want}): run `modhub db upgrade`",
            "behind": f"database schema is behind: at {at}, the code needs {want}: run `modhub db upgrade`",
            "ahead": f"database schema is ahead of this code: at {at}, unknown here (the code knows up to "
            f"{want}): deploy the newer code or `modhub db downgrade {want}` with it",
        }[self.status]


def schema_state(connection) -> SchemaState:
    """The database's revisions (read through a connection) against the code's heads."""
    current = frozenset(MigrationContext.configure(connection).get_current_heads())
    unknown = set()
    for rev in current:
        try:
            if scripts().get_revision(rev) is None:
                unknown.add(rev)
        except CommandError:
            unknown.add(rev)
    return SchemaState(current, code_heads(), frozenset(unknown))


def state_of(url: str, *, connect_args: dict | None = None) -> SchemaState:
    """schema_state() over a short-lived connection to the database at url."""
    engine = create_engine(url, poolclass=NullPool, connect_args=connect_args or {})
    try:
        with engine.connect() as conn:
            return schema_state(conn)
    finally:
        engine.dispose()


def upgrade(url: str, revision: str = "heads", connection=None) -> None:
    """Migrate the database to a revision (every head by default), under the migrations' lock."""
    if connection is not None:  # the caller's connection and transaction (tests)
        command.upgrade(alembic_config(url, connection), revision)
        return
    with _locked(url) as conn:
        command.upgrade(alembic_config(url, conn), revision)


def downgrade(url: str, revision: str) -> None:
    """Migrate the database down to a revision, under the migrations' lock."""
    with _locked(url) as conn:
        command.downgrade(alembic_config(url, conn), revision)


def history() -> list[str]:
    """The code's revisions, newest first, one line each: `rev <- down: message`."""
    lines = []
    for script in scripts().walk_revisions():
        down = script.down_revision or "(base)"
        down = down if isinstance(down, str) else ", ".join(down)
        head = " (head)" if script.revision in code_heads() else ""
        lines.append(f"{script.revision}{head} <- {down}: {script.doc.splitlines()[0] if script.doc else ''}")
    return lines


@contextlib.contextmanager
def _locked(url: str):
    """A connection in a transaction that holds the migrations' lock until it ends."""
    parsed = make_url(url)
    engine = create_engine(url, poolclass=NullPool)
    try:
        if parsed.get_backend_name() == "postgresql":
            with engine.connect() as conn, conn.begin():
                conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": LOCK_KEY})
                yield conn
            return
        database = parsed.database
        lock_path = Path(f"{database}.migrate-lock") if database and database != ":memory:" else None
        with _file_lock(lock_path), engine.connect() as conn, conn.begin():
            yield conn
    finally:
        engine.dispose()


@contextlib.contextmanager
def _file_lock(path: Path | None):
    if path is None:
        yield
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)
