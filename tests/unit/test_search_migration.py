"""Migration 0005 (search and sync artifacts) goes down and up again on both databases."""

import uuid

import pytest
from alembic import command
from sqlalchemy import create_engine, inspect
from sqlalchemy.engine import make_url

from modhub.migrate import alembic_config, upgrade
from tests.helpers.env import PG_URL
from tests.support import drop_database, recreate_database

pytestmark = pytest.mark.slow  # live servers, processes or migrations


def _round_trip(url: str) -> set[str]:
    upgrade(url)
    command.downgrade(alembic_config(url), "0005-1")
    engine = create_engine(url)
    without = {c["name"] for c in inspect(engine).get_columns("resource_post")}
    engine.dispose()
    upgrade(url)
    engine = create_engine(url)
    columns = {c["name"] for c in inspect(engine).get_columns("resource_post")}
    engine.dispose()
    assert not without & {"search_doc", "search_tsv", "search_rating", "sync_xid", "sync_seq"}
    return columns - without


@pytest.mark.sqlite
def test_0005_round_trip_on_sqlite(tmp_path):
    assert _round_trip(f"sqlite:///{tmp_path}/m.db") == {"sync_seq"}


def test_0005_round_trip_on_postgresql():
    url = make_url(PG_URL).set(database=f"modhub_test_search_mig_{uuid.uuid4().hex[:8]}")
    url = url.render_as_string(hide_password=False)
    recreate_database(url)
    try:
        assert _round_trip(url) == {"search_doc", "search_tsv", "search_rating", "sync_xid"}
    finally:
        drop_database(url)
