"""The embedded default (SQLite, no Redis) keeps the catalogue generation in the database: a
change committed by a CLI command (here, in the test's process) is seen by the next read of the
server running in its own process, while a change made behind the domain's back is not (the record
is kept)."""

from __future__ import annotations

import pytest
import requests
from click.testing import CliRunner
from sqlalchemy import update

from models.catalog.tables import ResourcePost
from models.identity import applications
from models.record_cache import read_generation
from models.types import utcnow
from modhub.app import build_platform
from modhub.cli import main
from tests.functional.identity.live import serve_processes
from tests.support import Creds

pytestmark = [pytest.mark.sqlite, pytest.mark.slow]  # a server process
DETAIL = "/openapi/v2/mods/{}"


def _post() -> ResourcePost:
    return ResourcePost(
        section_code="minecraft",
        main_name="原名 Original",
        sub_name="s",
        introduction="i",
        abbr_name="o",
        cover_image="c.jpg",
        resource_type="mod",
        run_platform="forge",
        status="PUBLISHED",
        visibility="PUBLIC",
        main_categories=[],
        tags=[],
        publish_time=utcnow(),
        update_time=utcnow(),
    )


def test_a_cli_change_is_seen_by_the_server_process_at_its_next_request(embedded_settings, monkeypatch):
    settings = embedded_settings
    platform = build_platform(settings)
    with platform.db.session() as session, session.begin():
        made = applications.create(
            session, platform.secrets, name="cli", approve=True, per_minute=100_000, per_day=1_000_000
        )
        post = _post()
        session.add(post)
    creds, path = Creds(made.app_id, made.api_key, made.secret_key), DETAIL.format(post.id)
    env = {
        "MODHUB_DATABASE_URL": settings.database_url,
        "MODHUB_ENCRYPTION_KEY": settings.encryption_key,
        "MODHUB_REDIS_URL": "",
        "MODHUB_DATA_DIR": str(settings.data_dir),
        "MODHUB_RECORD_CACHE_SECONDS": "600",
    }

    def read():
        return requests.get(base + path, headers=creds.headers("GET", path), timeout=30).json()

    for name, value in env.items():
        monkeypatch.setenv(name, value)

    def cli(*args):
        result = CliRunner().invoke(main, list(args), catch_exceptions=False)
        assert result.exit_code == 0, result.output

    with serve_processes(1, env) as [base]:
        assert read()["data"]["mainName"] == "原名 Original"
        with platform.db.session() as session:  # behind the domain's back: not seen (kept)
            session.execute(
                update(ResourcePost)
                .where(ResourcePost.id == post.id)
                .values(main_name="直接 Direct", status="HIDDEN")
            )
            session.commit()
        assert read()["data"]["mainName"] == "原名 Original"
        with platform.db.session() as session:
            before = read_generation(session)
        cli("admin", "resource", "restore", str(post.id))  # publishes the hidden post again
        with platform.db.session() as session:
            assert read_generation(session) > before  # moved in the CLI's own transaction
        assert read()["data"]["mainName"] == "直接 Direct"
        cli("admin", "resource", "delete", str(post.id))
        assert read()["code"] == 200404
