"""The demo seed: deterministic, consistent counters, refusal on a non-empty catalogue, the CLI."""

import datetime as dt
import json
from types import SimpleNamespace

import pytest
from click.testing import CliRunner
from sqlalchemy import func, select, text
from sqlalchemy.exc import OperationalError

from models.catalog.tables import DailyStat, Rating, ResourcePost
from models.community.tables import Comment
from modhub.cli import main
from modhub.db import Database
from modhub.migrate import upgrade
from modhub.seed import SeedRefused, catalogue_is_empty, seed

pytestmark = pytest.mark.slow  # live servers, processes or migrations

TODAY = dt.date(2026, 5, 1)
TABLES = [
    "section",
    "run_platform",
    "category",
    "tag",
    "app_user",
    "resource_post",
    "resource_author",
    "resource_link",
    "resource_relation",
    "resource_version",
    "resource_file",
    "rating",
    "comment",
    "resource_daily_stat",
    "server_post",
]


def _dump(url: str, resources: int) -> dict:
    upgrade(url)
    db = Database.from_url(url)
    with db.session() as session, session.begin():
        seed(session, resources=resources, today=TODAY)
    with db.session() as session:
        dump = {
            t: [tuple(r) for r in session.execute(text(f"SELECT * FROM {t} ORDER BY id"))] for t in TABLES
        }
    db.engine.dispose()
    return dump


def test_same_count_gives_the_same_catalogue(tmp_path):
    first = _dump(f"sqlite:///{tmp_path}/a.db", 40)
    second = _dump(f"sqlite:///{tmp_path}/b.db", 40)
    assert first == second
    assert len(first["resource_post"]) == 40 and len(first["section"]) >= 5
    other = _dump(f"sqlite:///{tmp_path}/c.db", 41)
    assert len(other["resource_post"]) == 41


def test_seed_counters_are_consistent_and_a_second_seed_refuses(db):
    with db.session() as session:
        assert catalogue_is_empty(session)
        counts = seed(session, resources=300, today=TODAY)
        session.flush()
        assert counts["resource_post"] == 300
        posts = session.scalars(select(ResourcePost)).all()
        kinds = {(p.status, p.visibility, p.is_delete) for p in posts}
        assert ("PUBLISHED", "PUBLIC", False) in kinds and len(kinds) >= 4  # drafts, private, deleted
        titles = " ".join(p.main_name + (p.sub_name or "") for p in posts)
        assert any("\u4e00" <= ch <= "\u9fff" for ch in titles) and any(ch.isascii() for ch in titles)
        ratings = dict(session.execute(select(Rating.post_id, func.count()).group_by(Rating.post_id)).all())
        totals = dict(
            session.execute(select(Rating.post_id, func.sum(Rating.score)).group_by(Rating.post_id)).all()
        )
        visible = dict(
            session.execute(
                select(Comment.entity_id, func.count())
                .where(
                    Comment.status == "NORMAL",
                    Comment.entity_type == "RESOURCE_POST",
                    Comment.is_delete.is_(False),
                )
                .group_by(Comment.entity_id)
            ).all()
        )
        views = dict(
            session.execute(
                select(DailyStat.post_id, func.sum(DailyStat.views)).group_by(DailyStat.post_id)
            ).all()
        )
        for p in posts:
            assert p.rating_count == ratings.get(p.id, 0) and p.rating_total == (totals.get(p.id) or 0)
            assert p.comment_count == visible.get(p.id, 0)
            assert p.views_count >= (views.get(p.id) or 0)
        per_post = select(func.count(DailyStat.id).label("n")).group_by(DailyStat.post_id).subquery()
        assert session.scalar(select(func.max(per_post.c.n))) >= 30  # 30+ days of history
        with pytest.raises(SeedRefused):
            seed(session, resources=5, today=TODAY)
        session.rollback()


def test_cli_demo_seed_then_refusal(tmp_path, monkeypatch):
    for name in ("DATABASE_URL", "REDIS_URL", "ENCRYPTION_KEY", "PRODUCTION"):
        monkeypatch.delenv(f"MODHUB_{name}", raising=False)
    monkeypatch.setenv("MODHUB_DATA_DIR", str(tmp_path / "data"))
    runner = CliRunner()
    assert runner.invoke(main, ["db", "upgrade"]).exit_code == 0
    done = runner.invoke(main, ["demo", "seed", "--resources", "25"])
    assert done.exit_code == 0, done.output
    assert json.loads(done.stdout.strip().splitlines()[-1])["resource_post"] == 25
    again = runner.invoke(main, ["demo", "seed", "--resources", "25"])
    assert again.exit_code == 1 and "not empty" in again.output
    assert runner.invoke(main, ["demo", "seed", "--resources", "0"]).exit_code == 2
    assert "EMPTY" in runner.invoke(main, ["demo", "seed", "--help"]).output


def test_the_seed_is_not_bound_by_the_statement_time_out_and_requests_still_are(settings, monkeypatch):
    """One COPY of a million-resource seed can outlast MODHUB_DB_STATEMENT_TIMEOUT_SECONDS on a
    small machine: the seed's transactions lift it for themselves alone."""
    import modhub.seed as seeding

    db = Database.from_settings(settings.replace(db_statement_timeout_seconds=0.1))

    def slow_seed(session, **_):
        session.execute(text("SELECT pg_sleep(0.3)"))
        return {"resource_post": 0}

    monkeypatch.setattr(seeding, "seed", slow_seed)
    try:
        assert seeding.seed_cli(SimpleNamespace(db=db, storage=None), resources=1) == {"resource_post": 0}
        with db.session() as session, pytest.raises(OperationalError, match="statement timeout"):
            session.execute(text("SELECT pg_sleep(0.3)"))
    finally:
        db.engine.dispose()
