"""Settings checked at start: every bad value is one line on stderr and exit status 2, for every
command; production mode's guards (issue 30, item 4)."""

import subprocess
import sys

import pytest
from click.testing import CliRunner
from cryptography.fernet import Fernet

from modhub.cli import main
from modhub.settings import SettingsError, from_env

BAD = [
    ("MODHUB_PRODUCTION", "maybe", "MODHUB_PRODUCTION must be true/1/yes/on"),
    ("MODHUB_TIME_ZONE", "Mars/Olympus", "MODHUB_TIME_ZONE is not an IANA time zone"),
    ("MODHUB_MAX_BODY_BYTES", "-5", "MODHUB_MAX_BODY_BYTES must be at least 1"),
    ("MODHUB_MAX_UPLOAD_BYTES", "lots", "MODHUB_MAX_UPLOAD_BYTES must be a int"),
    ("MODHUB_DEFAULT_PER_MINUTE", "0", "MODHUB_DEFAULT_PER_MINUTE must be at least 1"),
    ("MODHUB_DEFAULT_PER_DAY", "0", "MODHUB_DEFAULT_PER_DAY must be at least 1"),
    ("MODHUB_REDIS_URL", "localhost:6379", "MODHUB_REDIS_URL is not a Redis URL"),
    ("MODHUB_STORAGE_URL", "ftp://bucket", "MODHUB_STORAGE_URL must be empty or s3://"),
    ("MODHUB_INSTALL_SIGNING_KEY", "-----BEGIN nonsense", "MODHUB_INSTALL_SIGNING_KEY is not"),
    ("MODHUB_LOG_FORMAT", "xml", "MODHUB_LOG_FORMAT must be text or json"),
    ("MODHUB_METRICS_ALLOW", "10.0.0.300", "MODHUB_METRICS_ALLOW"),
    ("MODHUB_BASE_URL", "api.example", "MODHUB_BASE_URL must be an http(s) URL"),
    ("MODHUB_SHUTDOWN_DRAIN_SECONDS", "45", "MODHUB_SHUTDOWN_DRAIN_SECONDS must be less than"),
    ("MODHUB_DB_POOL_SIZE", "0", "MODHUB_DB_POOL_SIZE must be at least 1"),
    ("MODHUB_ACCESS_LOG", "sometimes", "MODHUB_ACCESS_LOG must be true/1/yes/on"),
]


@pytest.fixture()
def env(tmp_path, monkeypatch):
    for name in ("DATABASE_URL", "REDIS_URL", "ENCRYPTION_KEY", "PRODUCTION", "STORAGE_URL"):
        monkeypatch.delenv(f"MODHUB_{name}", raising=False)
    monkeypatch.setenv("MODHUB_DATA_DIR", str(tmp_path / "data"))
    return monkeypatch


@pytest.mark.parametrize(("name", "value", "message"), BAD, ids=[b[0] for b in BAD])
def test_bad_setting_is_one_line_and_exit_2(env, name, value, message):
    env.setenv(name, value)
    result = CliRunner().invoke(main, ["app", "list"])
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], result.stderr


@pytest.mark.parametrize("command", [["serve"], ["run"], ["worker"], ["db", "upgrade"], ["storage", "sweep"]])
def test_every_command_checks_the_settings(env, command):
    env.setenv("MODHUB_TIME_ZONE", "Nowhere/Special")
    result = CliRunner().invoke(main, command)
    assert result.exit_code == 2 and "MODHUB_TIME_ZONE" in result.stderr


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("True", True),
        ("YES", True),
        ("on", True),
        ("1", True),
        ("False", False),
        ("off", False),
        ("0", False),
        ("No", False),
    ],
)
def test_production_flag_spellings(env, raw, expected):
    env.setenv("MODHUB_PRODUCTION", raw)
    if expected:
        with pytest.raises(SettingsError, match="production mode needs"):
            from_env()
    else:
        assert from_env().production is False


def _production(env):
    env.setenv("MODHUB_PRODUCTION", "True")
    env.setenv("MODHUB_DATABASE_URL", "postgresql://modhub@db.invalid/modhub")
    env.setenv("MODHUB_REDIS_URL", "redis://cache.invalid:6379/0")
    env.setenv("MODHUB_ENCRYPTION_KEY", Fernet.generate_key().decode())


def test_production_refuses_local_disk_unless_opted_in(env):
    _production(env)
    with pytest.raises(SettingsError, match="MODHUB_STORAGE_URL=s3://bucket"):
        from_env()
    env.setenv("MODHUB_ALLOW_LOCAL_STORAGE", "yes")
    assert from_env().allow_local_storage is True
    env.setenv("MODHUB_ALLOW_LOCAL_STORAGE", "")
    env.setenv("MODHUB_STORAGE_URL", "s3://files")
    assert from_env().production is True


def test_production_refuses_private_webhooks(env):
    _production(env)
    env.setenv("MODHUB_STORAGE_URL", "s3://files")
    env.setenv("MODHUB_WEBHOOK_ALLOW_PRIVATE", "on")
    with pytest.raises(SettingsError, match="MODHUB_WEBHOOK_ALLOW_PRIVATE"):
        from_env()


def test_app_cache_seconds_is_read(env):
    env.setenv("MODHUB_APP_CACHE_SECONDS", "0")
    assert from_env().app_cache_seconds == 0


def test_real_process_exit_status(env, tmp_path):
    """The console script itself (not the test runner): status 2 and one stderr line."""
    env.setenv("MODHUB_TIME_ZONE", "Bad/Zone")
    proc = subprocess.run(
        [sys.executable, "-m", "modhub.cli", "worker"], capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.strip().count("\n") == 0 and "MODHUB_TIME_ZONE" in proc.stderr
