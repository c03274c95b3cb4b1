"""A first run a person can follow: --version, not-a-data-folder message, banner, demo callback."""

from __future__ import annotations

from click.testing import CliRunner

from modhub import __version__, demo
from modhub.cli import main
from tests.functional.test_cli import run  # noqa: F401  (the CLI fixture)


def test_version():
    result = CliRunner().invoke(main, ["--version"])
    assert result.exit_code == 0 and result.output.strip() == f"modhub, version {__version__}"


def test_a_folder_that_is_not_a_data_folder_is_named(tmp_path, monkeypatch):
    for name in ("DATABASE_URL", "REDIS_URL", "ENCRYPTION_KEY", "PRODUCTION"):
        monkeypatch.delenv(f"MODHUB_{name}", raising=False)
    monkeypatch.setenv("MODHUB_DATA_DIR", str(tmp_path / "nowhere"))
    result = CliRunner().invoke(main, ["app", "list"])
    assert result.exit_code == 1 and "is not a modhub data folder" in result.output
    assert "Traceback" not in result.output and not (tmp_path / "nowhere" / "modhub.db").exists()


def test_demo_redirect_password_and_banner(run, embedded_settings):  # noqa: F811
    from modhub.app import build_platform

    platform = build_platform(embedded_settings)
    creds = demo.ensure_demo_app(platform, redirect_uri="http://127.0.0.1:8000/demo/callback")
    password = demo.new_demo_password(platform, creds["demoUserId"])
    from models.console.service import has_role
    from models.identity import accounts

    with platform.db.session() as session:
        assert accounts.authenticate(session, login="demo", password=password) is not None
        assert has_role(session, user_id=creds["demoUserId"])
    text = demo.banner(creds, "http://127.0.0.1:8000", password)
    assert creds["secretKey"] in text and "/console" in text and "/openapi/v2/meta/docs/" in text
    assert f"demo / {password}" in text
    platform.db.engine.dispose()


def test_demo_callback_page_shows_the_code(client):
    page = client.get("/demo/callback?auth_code=AB12CD&user_id=7&state=s1")
    assert page.status_code == 200 and 'id="auth-code">AB12CD<' in page.text
    assert 'id="user-id">7<' in page.text
    assert 'id="callback-error"' in client.get("/demo/callback?error=access_denied").text
