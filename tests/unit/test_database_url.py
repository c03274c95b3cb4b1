"""MODHUB_DATABASE_URL: the forms hosting providers give work with the installed driver; an
unusable URL is a one-line error naming the setting."""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from sqlalchemy import text
from sqlalchemy.engine import make_url

from modhub.cli import main
from modhub.db import Database
from modhub.settings import SettingsError, from_env
from tests.helpers.env import PG_URL


def bare(scheme: str) -> str:
    """The test database's URL with no driver named: postgres://... or postgresql://..."""
    rest = make_url(PG_URL).render_as_string(hide_password=False).split("://", 1)[1]
    return f"{scheme}://{rest}"


@pytest.fixture()
def env(tmp_path, monkeypatch):
    for name in ("REDIS_URL", "ENCRYPTION_KEY", "PRODUCTION"):
        monkeypatch.delenv(f"MODHUB_{name}", raising=False)
    monkeypatch.setenv("MODHUB_DATA_DIR", str(tmp_path))
    return monkeypatch


@pytest.mark.parametrize("scheme", ["postgres", "postgresql"])
def test_bare_postgres_urls_use_the_installed_driver_and_connect(env, pg_engine, scheme):
    env.setenv("MODHUB_DATABASE_URL", bare(scheme))
    settings = from_env()
    assert make_url(settings.database_url).drivername == "postgresql+psycopg2"
    database = Database.from_url(bare(scheme))  # direct callers get the same treatment
    try:
        with database.session() as session:
            assert session.execute(text("select 1")).scalar() == 1
    finally:
        database.engine.dispose()


def test_explicit_driver_and_sqlite_urls_are_kept(env, tmp_path):
    env.setenv("MODHUB_DATABASE_URL", PG_URL)
    assert from_env().database_url == PG_URL
    env.setenv("MODHUB_DATABASE_URL", f"sqlite:///{tmp_path}/m.db")
    assert from_env().database_url == f"sqlite:///{tmp_path}/m.db"


@pytest.mark.parametrize(
    ("url", "reason"),
    [
        ("not a url", "is not a database URL"),
        ("mysql://u@h/db", "modhub runs on postgresql:// or sqlite:///"),
        ("postgresql+nosuch://u@h/db", "unknown driver 'postgresql+nosuch'"),
        ("postgresql+psycopg://u@h/db", "missing driver module 'psycopg'"),
    ],
)
def test_an_unusable_url_is_a_one_line_error_naming_the_setting(env, url, reason):
    env.setenv("MODHUB_DATABASE_URL", url)
    try:
        import psycopg  # noqa: F401

        if "psycopg'" in reason:
            pytest.skip("psycopg 3 is installed here")
    except ImportError:
        pass
    with pytest.raises(SettingsError) as info:
        from_env()
    message = str(info.value)
    assert message.startswith("MODHUB_DATABASE_URL ") and reason in message
    assert "\n" not in message
    result = CliRunner().invoke(main, ["db", "upgrade"])
    assert result.exit_code == 2  # a configuration error (modhub.cli.common.SettingsFailure)
    assert result.output.strip() == f"Error: {message}" and "Traceback" not in result.output
