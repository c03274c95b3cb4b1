"""Administrative `modhub` commands are written to the admin audit table, as the admin pages'
actions are: who ran them (cli:<user>@<host>), what, with which parameters; a failed command is
not recorded."""

from __future__ import annotations

import getpass
import json
import socket

import pytest
from click.testing import CliRunner
from sqlalchemy import create_engine, text

from modhub.cli import main

pytestmark = pytest.mark.slow  # migrations of an embedded data folder


def test_admin_commands_are_audited_and_failures_are_not(tmp_path, monkeypatch):
    for name in ("DATABASE_URL", "REDIS_URL", "ENCRYPTION_KEY", "PRODUCTION"):
        monkeypatch.delenv(f"MODHUB_{name}", raising=False)
    monkeypatch.setenv("MODHUB_DATA_DIR", str(tmp_path / "data"))

    def run(*args, code=0):
        result = CliRunner().invoke(main, list(args))
        assert result.exit_code == code, result.output
        return result

    run("db", "upgrade")
    app_id = str(json.loads(run("app", "create", "--name", "Launcher").stdout)["appId"])
    run("app", "approve", app_id)
    run("app", "disable", "987654", code=1)  # no such application: refused, not audited
    run("app", "list")  # a read: not audited
    engine = create_engine(f"sqlite:///{tmp_path / 'data' / 'modhub.db'}")
    with engine.connect() as conn:
        rows = conn.execute(
            text("SELECT actor_user_id, actor, action, detail FROM admin_audit ORDER BY id")
        ).all()
    engine.dispose()
    actor = f"cli:{getpass.getuser()}@{socket.gethostname()}"[:64]
    assert [(r.actor_user_id, r.actor, r.action) for r in rows] == [
        (None, actor, "app create"),
        (None, actor, "app approve"),
    ]
    assert json.loads(rows[1].detail) == {"app_id": int(app_id)}
