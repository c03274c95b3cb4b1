"""The install key is kept in the database and created once under a lock: concurrent first
calls from several "hosts" (engines with pools of their own) all publish one key id, on
PostgreSQL and on SQLite (issue 30, item 5)."""

from __future__ import annotations

import shutil
import threading

import pytest
from sqlalchemy import func, select

from models.downloads import keys
from models.downloads.tables import InstallSigningKey
from modhub.db import Database
from tests.helpers.env import PG_URL, RUN_PG_URL
from tests.support import migrated_database


def _first_calls(databases: list[Database], settings, callers: int) -> list[str]:
    barrier = threading.Barrier(callers)
    kids: list[str] = []
    errors: list[BaseException] = []

    def call(db: Database) -> None:
        try:
            barrier.wait(timeout=30)
            with db.session() as session, session.begin():
                kids.append(keys.ring(session, settings).kid)
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=call, args=(databases[i % len(databases)],)) for i in range(callers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not errors, errors
    return kids


def _rows(db: Database) -> int:
    with db.session() as session:
        return session.scalar(select(func.count()).select_from(InstallSigningKey))


def test_eight_concurrent_first_calls_on_two_hosts_publish_one_key_postgresql(settings):
    url = f"{PG_URL}_keys"
    migrated_database(url, RUN_PG_URL)
    hosts = [Database.from_url(url), Database.from_url(url)]
    try:
        kids = _first_calls(hosts, settings.replace(database_url=url), 8)
        assert len(kids) == 8 and len(set(kids)) == 1
        assert _rows(hosts[0]) == 1
    finally:
        for db in hosts:
            db.engine.dispose()


def test_eight_concurrent_first_calls_publish_one_key_sqlite(tmp_path, sqlite_template, settings):
    path = tmp_path / "m.db"
    shutil.copyfile(sqlite_template, path)
    url = f"sqlite:///{path}"
    hosts = [Database.from_url(url), Database.from_url(url)]
    kids = _first_calls(hosts, settings.replace(database_url=url), 8)
    assert len(set(kids)) == 1 and _rows(hosts[0]) == 1


@pytest.fixture(autouse=True)
def _small_keys(monkeypatch):
    """A new key on each call (tests/conftest.py hands out one per run), of 2048 bits: the race is
    the subject here, not the key size (3072 costs ~1 s a key)."""
    monkeypatch.setattr(keys, "_new_private_pem", lambda key_size=2048: _NEW_KEY(key_size))


_NEW_KEY = keys._new_private_pem.__wrapped__
