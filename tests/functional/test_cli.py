"""The modhub command on the embedded SQLite default: db upgrade, app create/list/approve/..."""

import json

import pytest
from click.testing import CliRunner

from modhub.cli import main

pytestmark = pytest.mark.slow  # live servers, processes or migrations


@pytest.fixture()
def run(tmp_path, monkeypatch):
    for name in ("DATABASE_URL", "REDIS_URL", "ENCRYPTION_KEY", "PRODUCTION"):
        monkeypatch.delenv(f"MODHUB_{name}", raising=False)
    monkeypatch.setenv("MODHUB_DATA_DIR", str(tmp_path / "data"))

    def invoke(*args, ok=True):
        result = CliRunner().invoke(main, list(args), catch_exceptions=False)
        assert (result.exit_code == 0) is ok, result.output
        return result

    invoke("db", "upgrade")
    return invoke


def test_app_create_prints_credentials_once_and_stores_secret_encrypted(run, tmp_path):
    out = run(
        "app",
        "create",
        "--name",
        "Launcher",
        "--permission",
        "user:proxy",
        "--ip-allow",
        "10.0.0.*",
        "--per-minute",
        "5",
        "--per-day",
        "50",
        "--approve",
    )
    creds = json.loads(out.stdout)
    assert set(creds) == {"appId", "apiKey", "secretKey"} and len(creds["apiKey"]) == 32
    db_bytes = (tmp_path / "data" / "modhub.db").read_bytes()
    assert creds["secretKey"].encode() not in db_bytes
    listed = [json.loads(line) for line in run("app", "list").stdout.splitlines()]
    assert listed[0]["status"] == "APPROVED" and listed[0]["ipAllow"] == ["10.0.0.*"]
    assert listed[0]["perMinute"] == 5 and creds["secretKey"] not in run("app", "list").stdout


def test_approve_disable_rotate(run):
    creds = json.loads(run("app", "create", "--name", "X").stdout)
    app_id = str(creds["appId"])
    run("app", "approve", app_id)
    run("app", "disable", app_id)
    assert json.loads(run("app", "list").stdout)["status"] == "DISABLED"
    rotated = json.loads(run("app", "rotate-secret", app_id).stdout)
    assert rotated["apiKey"] == creds["apiKey"] and rotated["secretKey"] != creds["secretKey"]
    assert "does not exist" in run("app", "approve", "999", ok=False).output


def test_production_without_secrets_fails_fast(run, monkeypatch):
    monkeypatch.setenv("MODHUB_PRODUCTION", "1")
    result = run("app", "list", ok=False)
    assert "MODHUB_ENCRYPTION_KEY" in result.output and "MODHUB_DATABASE_URL" in result.output


def test_embedded_key_is_generated_once_and_kept(run, tmp_path):
    key_file = tmp_path / "data" / "encryption.key"
    first = key_file.read_text()
    run("app", "list")
    assert key_file.read_text() == first and oct(key_file.stat().st_mode)[-3:] == "600"


def test_bad_encryption_key_is_a_clear_error(run, monkeypatch):
    monkeypatch.setenv("MODHUB_ENCRYPTION_KEY", "short")
    assert "not a valid Fernet key" in run("app", "list", ok=False).output


def test_keygen_prints_a_fernet_key(run):
    from cryptography.fernet import Fernet

    Fernet(run("keygen").stdout.strip().encode())
