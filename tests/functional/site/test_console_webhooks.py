"""Console webhook pages through the HTTP stack: add (secret once), pause, resume, rotate,
delivery log, redeliver, remove; only the owner, CSRF on every form."""

from __future__ import annotations

import re

import pytest
from sqlalchemy import select

from models.types import utcnow
from models.webhooks.tables import (
    DeliveryStatus,
    OutboxEvent,
    WebhookAttempt,
    WebhookDelivery,
    WebhookSubscription,
)
from tests.functional.site.test_console_pages import log_in, people, post, register  # noqa: F401


@pytest.fixture()
def settings(settings):
    """Plain-HTTP site URL (session cookie sent back); loopback callbacks allowed."""
    return settings.replace(site_url="http://testserver", webhook_allow_private=True)


def _delivery(db, subscription_id: int) -> str:
    with db.session() as session:
        event = OutboxEvent(event_id="ev-console-1", kind="resource.published", data={"id": 1})
        session.add(event)
        session.flush()
        delivery = WebhookDelivery(
            event_id=event.id,
            subscription_id=subscription_id,
            attempts=1,
            status=DeliveryStatus.FAILED,
            last_status_code=500,
        )
        session.add(delivery)
        session.flush()
        session.add(
            WebhookAttempt(
                delivery_id=delivery.id,
                number=1,
                attempted_at=utcnow(),
                status_code=500,
                latency_ms=42,
                response_excerpt="boom",
                error=None,
            )
        )
        session.commit()
        return event.event_id


def test_owner_manages_webhooks_and_reads_the_log(client, db, people):  # noqa: F811
    log_in(client, "owner")
    app_id = register(client)
    hooks = f"/console/apps/{app_id}/webhooks"
    assert 'id="no-hooks"' in client.get(hooks).text
    added = post(client, hooks, hooks, url="http://127.0.0.1:9/hook", events="resource.published")
    secret = re.search(r'id="hook-secret">(whsec_[^<]+)<', added.text).group(1)
    sub_id = int(re.search(r'id="hook-(\d+)"', added.text).group(1))
    assert secret not in client.get(hooks).text  # shown once

    assert post(client, f"/console/webhooks/{sub_id}/pause", hooks).status_code == 302
    assert 'hook-status">PAUSED<' in client.get(hooks).text
    assert post(client, f"/console/webhooks/{sub_id}/resume", hooks).status_code == 302
    assert 'hook-status">ACTIVE<' in client.get(hooks).text
    rotated = post(client, f"/console/webhooks/{sub_id}/rotate", hooks)
    assert re.search(r'id="hook-secret">(whsec_[^<]+)<', rotated.text).group(1) != secret

    event_id = _delivery(db, sub_id)
    log = client.get(hooks).text
    assert event_id in log and "42 ms" in log and "boom" in log and "FAILED" in log
    assert post(client, f"/console/webhooks/{sub_id}/redeliver", hooks, event_id=event_id).status_code == 302
    assert re.search(r'class="state">PENDING<', client.get(hooks).text)
    assert post(client, f"/console/webhooks/{sub_id}/redeliver", hooks, event_id="nope").status_code == 404

    assert post(client, f"/console/webhooks/{sub_id}/test", hooks).status_code == 302
    assert "webhook.test" in client.get(hooks).text
    with db.session() as session:
        test_event = session.scalar(select(OutboxEvent).where(OutboxEvent.kind == "webhook.test"))
        assert test_event.relayed_at is not None  # sent to this subscription only, never fanned out

    log_in(client, "other")
    assert client.get(hooks).status_code == 404
    assert post(client, f"/console/webhooks/{sub_id}/remove", "/console").status_code == 404
    log_in(client, "owner")
    assert client.post(f"/console/webhooks/{sub_id}/remove", data={}).status_code == 400  # no CSRF
    assert post(client, f"/console/webhooks/{sub_id}/remove", hooks).status_code == 302
    with db.session() as session:
        assert session.get(WebhookSubscription, sub_id) is None
    assert post(client, hooks, hooks, url="ftp://x.example/").status_code == 400
