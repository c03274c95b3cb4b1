"""The outbox relay: committed events -> one delivery row per matching ACTIVE subscription ->
RQ delivery jobs; and the periodic sweep that makes Redis outages and killed workers harmless.

The database is the source of truth: an event is relayed when it has `relayed_at`, a delivery is
owed while it is PENDING. RQ jobs are only the fast path; the sweep re-enqueues whatever is owed
and overdue (lost job, Redis restarted, worker SIGKILLed), and delivery jobs are idempotent.
"""

from __future__ import annotations

import datetime as dt
import logging

from sqlalchemy import bindparam, insert, select, update

from models.identity.tables import Application, AppStatus
from models.webhooks.tables import (
    DeliveryStatus,
    OutboxEvent,
    SubscriptionStatus,
    WebhookDelivery,
    WebhookSubscription,
)

log = logging.getLogger(__name__)
RELAY_LIMIT = 1000


def relay_pending(rt, *, older_than: dt.datetime | None = None) -> list[int]:
    """Fan committed, unrelayed events out to ACTIVE subscriptions; return the new delivery ids."""
    created: list[int] = []
    while True:
        batch = relay_batch(rt, older_than)
        if batch is None:
            return created
        created.extend(batch[1])


def relay_batch(rt, older_than: dt.datetime | None = None) -> tuple[int, list[int]] | None:
    """Relay at most RELAY_LIMIT events (one transaction): (events relayed, new delivery ids),
    or None when no unlocked event is left."""
    now = rt.clock()
    with rt.db.session() as session, session.begin():
        query = (
            select(OutboxEvent.id, OutboxEvent.kind)
            .where(OutboxEvent.relayed_at.is_(None))
            .order_by(OutboxEvent.id)
            .limit(RELAY_LIMIT)
            .with_for_update(skip_locked=True)
        )
        if older_than is not None:
            query = query.where(OutboxEvent.created_at <= older_than)
        events = session.execute(query).all()
        if not events:
            return None
        subs = session.execute(
            select(WebhookSubscription.id, WebhookSubscription.events)
            .join(Application, Application.id == WebhookSubscription.app_id)
            .where(
                WebhookSubscription.status == SubscriptionStatus.ACTIVE,
                Application.status == AppStatus.APPROVED,
            )
        ).all()
        rows = [
            {
                "event_id": e.id,
                "subscription_id": s.id,
                "status": DeliveryStatus.PENDING,
                "attempts": 0,
                "next_attempt_at": now,
                "created_at": now,
            }
            for e in events
            for s in subs
            if e.kind in (s.events or [])
        ]
        ids = (
            list(session.scalars(insert(WebhookDelivery).returning(WebhookDelivery.id), rows)) if rows else []
        )
        # One expanding parameter: no per-id bound parameter built (CPU at 1,000 ids).
        session.execute(
            update(OutboxEvent)
            .where(OutboxEvent.id.in_(bindparam("ids", expanding=True)))
            .values(relayed_at=now),
            {"ids": [e.id for e in events]},
        )
    log.debug("relayed %d event(s) into %d delivery(ies)", len(events), len(ids))
    return len(events), ids


def overdue_deliveries(rt, *, grace: dt.timedelta, limit: int = 5000) -> list[int]:
    """PENDING deliveries due for longer than `grace` (their job was lost or their worker died)."""
    with rt.db.session() as session:
        return list(
            session.scalars(
                select(WebhookDelivery.id)
                .where(
                    WebhookDelivery.status == DeliveryStatus.PENDING,
                    WebhookDelivery.next_attempt_at <= rt.clock() - grace,
                )
                .order_by(WebhookDelivery.next_attempt_at)
                .limit(limit)
            )
        )


def sweep(rt) -> tuple[int, int]:
    """Relay events left behind (Redis down at commit) and re-enqueue overdue deliveries."""
    period = dt.timedelta(seconds=rt.settings.webhook_sweep_seconds)
    relayed = relay_pending(rt, older_than=rt.clock() - period)
    rt.dispatcher.send(relayed)
    overdue = overdue_deliveries(rt, grace=dt.timedelta(seconds=rt.settings.webhook_lease_seconds))
    rt.dispatcher.send(overdue)
    if relayed or overdue:
        log.info(
            "sweep: relayed %d delivery(ies) left in the outbox, re-enqueued %d overdue",
            len(relayed),
            len(overdue),
        )
    return len(relayed), len(overdue)
