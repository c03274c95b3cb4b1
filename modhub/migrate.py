"""Run the Alembic migrations programmatically (used by the CLI and the tests)."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config

MIGRATIONS = Path(__file__).resolve().parent.parent / "migrations"


def alembic_config(url: str, connection=None) -> Config:
    """An Alembic config pointing at our migrations and the given database."""
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    if connection is not None:
        cfg.attributes["connection"] = connection
    return cfg


def upgrade(url: str, revision: str = "heads", connection=None) -> None:
    """Migrate the database to a revision (every head by default)."""
    command.upgrade(alembic_config(url, connection), revision)
