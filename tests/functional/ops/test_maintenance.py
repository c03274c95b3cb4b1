"""The maintenance jobs: webhook-table retention keeps what is pending and what is recent, the
jobs run together from `modhub maintenance run`, and one worker at a time takes a turn."""

from __future__ import annotations

import datetime as dt
import json
import uuid

import pytest
from click.testing import CliRunner
from sqlalchemy import func, select

from models.webhooks import service as webhooks
from models.webhooks.tables import DeliveryStatus, OutboxEvent, WebhookAttempt, WebhookDelivery
from modhub.cli import main
from modhub.core.crypto import SecretBox
from workers import maintenance

NOW = dt.datetime(2026, 5, 1, 4, 0, tzinfo=dt.UTC)


def _count(db, model) -> int:
    with db.session() as session:
        return session.scalar(select(func.count()).select_from(model))


def _delivery(session, sub_id: int, status: DeliveryStatus, *, age_days: float, attempts: int = 1) -> int:
    at = NOW - dt.timedelta(days=age_days)
    event = OutboxEvent(
        event_id=uuid.uuid4().hex, kind="post.published", data={}, created_at=at, relayed_at=at
    )
    session.add(event)
    session.flush()
    done = None if status is DeliveryStatus.PENDING else at
    row = WebhookDelivery(
        event_id=event.id, subscription_id=sub_id, status=status, created_at=at, completed_at=done
    )
    session.add(row)
    session.flush()
    for n in range(attempts):
        session.add(WebhookAttempt(delivery_id=row.id, number=n + 1, attempted_at=at, latency_ms=3))
    return event.id


def test_retention_deletes_only_finished_old_deliveries_and_their_events(db, settings, make_app):
    with db.session() as session, session.begin():
        sub, _ = webhooks.create(
            session,
            SecretBox(settings.encryption_key),
            app_id=make_app().app_id,
            url="http://127.0.0.1:9/hook",
            allow_private=True,
        )
        sub_id = sub.id
        old_ok = _delivery(session, sub_id, DeliveryStatus.SUCCEEDED, age_days=40, attempts=2)
        old_failed = _delivery(session, sub_id, DeliveryStatus.FAILED, age_days=31)
        old_pending = _delivery(session, sub_id, DeliveryStatus.PENDING, age_days=45)
        recent_ok = _delivery(session, sub_id, DeliveryStatus.SUCCEEDED, age_days=2)
    with db.session() as session, session.begin():
        removed = webhooks.purge_finished(session, before=NOW - dt.timedelta(days=30))
    assert removed == {"deliveries": 2, "attempts": 3, "events": 2}
    with db.session() as session:
        left = set(session.scalars(select(OutboxEvent.id)))
    assert left == {old_pending, recent_ok} and not left & {old_ok, old_failed}
    assert _count(db, WebhookDelivery) == 2 and _count(db, WebhookAttempt) == 2


def test_the_jobs_run_together_and_report_counts(platform):
    results = maintenance.run(platform)
    assert list(results) == list(maintenance.JOBS)
    assert all("error" not in r for r in results.values()), results
    assert set(results["storage-sweep"]) == {"reservations", "contents", "spool_files"}
    assert "deliveries" in results["webhook-retention"] and "downloads" in results["downloads-flush"]


def test_one_worker_at_a_time_takes_the_turn(platform, redis_client):
    redis_client.delete(maintenance.LOCK_KEY)
    try:
        assert maintenance.run_if_due(platform, redis_client, interval=60) is not None
        assert maintenance.run_if_due(platform, redis_client, interval=60) is None  # not due yet
        assert 0 < redis_client.ttl(maintenance.LOCK_KEY) <= 60
        assert maintenance.run_if_due(platform, redis_client, interval=0) is None  # switched off
    finally:
        redis_client.delete(maintenance.LOCK_KEY)


@pytest.mark.slow
def test_modhub_maintenance_run_on_the_embedded_default(tmp_path, monkeypatch):
    for name in ("DATABASE_URL", "REDIS_URL", "ENCRYPTION_KEY", "PRODUCTION"):
        monkeypatch.delenv(f"MODHUB_{name}", raising=False)
    monkeypatch.setenv("MODHUB_DATA_DIR", str(tmp_path / "data"))
    assert CliRunner().invoke(main, ["db", "upgrade"]).exit_code == 0
    result = CliRunner().invoke(main, ["maintenance", "run"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert set(json.loads(result.stdout)) == set(maintenance.JOBS)
    only = CliRunner().invoke(main, ["maintenance", "run", "--only", "webhook-retention"])
    assert json.loads(only.stdout) == {"webhook-retention": {"attempts": 0, "deliveries": 0, "events": 0}}
