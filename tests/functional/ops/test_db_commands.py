"""`modhub db upgrade|current|check|downgrade|history` on PostgreSQL, `serve` refusing a schema
that does not match the code, and one-shot commands quiet on stderr (issue 30, item 7)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from click.testing import CliRunner
from cryptography.fernet import Fernet
from sqlalchemy import create_engine, text

from modhub.cli import main
from modhub.migrate import code_heads
from tests.helpers.env import PG_URL, RUN_PG_URL
from tests.support import drop_database, migrated_database

pytestmark = pytest.mark.slow  # live servers, processes or migrations

HEAD = sorted(code_heads())[0]


@pytest.fixture()
def env(tmp_path, monkeypatch):
    for name in ("REDIS_URL", "PRODUCTION", "STORAGE_URL", "LOG_LEVEL", "LOG_FORMAT"):
        monkeypatch.delenv(f"MODHUB_{name}", raising=False)
    monkeypatch.setenv("MODHUB_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("MODHUB_ENCRYPTION_KEY", Fernet.generate_key().decode())
    return monkeypatch


@pytest.fixture(scope="module")
def migrated_url():
    """One migrated database for this module's tests (each leaves it at the code's revision)."""
    url = f"{PG_URL}_dbcmd"
    migrated_database(url, RUN_PG_URL)
    yield url
    drop_database(url)


@pytest.fixture()
def migrated(env, migrated_url):
    env.setenv("MODHUB_DATABASE_URL", migrated_url)
    yield migrated_url
    assert _cli("db", "check").exit_code == 0  # left at the code's revision for the next test


def _set_revision(url: str, revision: str) -> None:
    engine = create_engine(url)
    with engine.begin() as conn:
        conn.execute(text("UPDATE alembic_version SET version_num = :r"), {"r": revision})
    engine.dispose()


def _cli(*args):
    return CliRunner().invoke(main, list(args))


def test_check_current_history_downgrade_and_serve_refusal(migrated):
    ok = _cli("db", "check")
    assert ok.exit_code == 0 and ok.stderr == "" and HEAD in ok.stdout
    assert _cli("db", "current").stdout.split() == [HEAD]
    history = _cli("db", "history").stdout.splitlines()
    assert history[0].startswith(f"{HEAD} (head) <- ") and len(history) > 5
    previous = history[0].split(" <- ")[1].split(":")[0]
    down = _cli("db", "downgrade", previous)
    assert down.exit_code == 0, down.output
    assert _cli("db", "current").stdout.split() == [previous]
    behind = _cli("db", "check")
    assert behind.exit_code == 1 and "behind" in behind.stderr and behind.stderr.count("\n") == 1
    refused = _cli("serve", "--port", "18441")  # refuses before binding anything
    assert refused.exit_code == 1 and "behind" in refused.stderr and "modhub db upgrade" in refused.stderr
    _set_revision(migrated, "9999_newer_code")
    ahead = _cli("db", "check")
    assert ahead.exit_code == 1 and "ahead of this code" in ahead.stderr
    assert "ahead" in _cli("serve", "--port", "18441").stderr
    _set_revision(migrated, previous)
    assert _cli("db", "upgrade").exit_code == 0 and _cli("db", "check").exit_code == 0


def test_two_upgrades_at_once_both_succeed_and_say_nothing_on_stderr(migrated):
    """Two hosts upgrading at once (one revision behind): one migrates, the other waits on the
    lock and finds nothing to do; neither fails nor writes on stderr."""
    previous = _cli("db", "history").stdout.splitlines()[0].split(" <- ")[1].split(":")[0]
    assert _cli("db", "downgrade", previous).exit_code == 0
    env = dict(os.environ)
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "modhub.cli", "db", "upgrade"],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    for proc in procs:
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 0 and err == "", err
        assert HEAD in out
    quiet = subprocess.run(
        [sys.executable, "-m", "modhub.cli", "app", "list"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert quiet.returncode == 0 and quiet.stderr == ""


def test_production_serve_needs_an_install_key_setting_or_one_in_the_database(migrated, env):
    env.setenv("MODHUB_PRODUCTION", "on")
    env.setenv("MODHUB_REDIS_URL", "redis://127.0.0.1:6379/4")
    env.setenv("MODHUB_STORAGE_URL", "s3://modhub-files")
    refused = _cli("serve", "--port", "18442")
    assert refused.exit_code == 1 and "MODHUB_INSTALL_SIGNING_KEY or an install key" in refused.stderr
    env.delenv("MODHUB_PRODUCTION")  # the CLI makes the key (an operator's first step)
    made = _cli("keys", "rotate-install-key")
    assert made.exit_code == 0, made.output
    from models.downloads.keys import stored_key_exists
    from modhub.db import Database

    db = Database.from_url(migrated)
    with db.session() as session:
        assert stored_key_exists(session)
    db.engine.dispose()
