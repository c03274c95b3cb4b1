"""The outbox relay: committed events -> one delivery row per matching ACTIVE subscription ->
RQ delivery jobs; and the periodic sweep that makes Redis outages and killed workers harmless.

The database is the source of truth: an event is relayed when it has `relayed_at`, a delivery is
owed while it is PENDING. RQ jobs are only the fast path; the sweep re-enqueues whatever is owed
and overdue (lost job, Redis restarted, worker SIGKILLed), and delivery jobs are idempotent.
"""

from __future__ import annotations

import datetime as dt
import logging

import redis
from rq import Queue
from sqlalchemy import insert, select, update

from models.events import NOTIFIER
from models.identity import Application, AppStatus
from models.webhooks import (
    DeliveryStatus,
    OutboxEvent,
    SubscriptionStatus,
    WebhookDelivery,
    WebhookSubscription,
)

log = logging.getLogger(__name__)
RELAY_JOB = "workers.relay.relay_job"
DELIVER_JOB = "workers.delivery.deliver_job"
RELAY_LIMIT = 1000
JOB_TTL = 3600  # a job nobody picks up within an hour expires; the sweep re-enqueues its work
# How long "a relay job is waiting" holds later commits back from enqueuing another. Short: a
# worker SIGKILLed between dequeuing the relay job and starting it leaves the flag behind, and
# every commit until it expires waits for the sweep (a 60 s flag meant 8-30 s delivery latency).
# Expiring early only costs one extra, idempotent relay job per period during a burst.
RELAY_FLAG_SECONDS = 2


class RQDispatcher:
    """Hands relay and delivery work to RQ on the configured queue."""

    def __init__(self, connection: redis.Redis, queue_name: str, batch_size: int, job_timeout: float):
        self.redis = connection
        self.queue = Queue(queue_name, connection=connection)
        self.batch_size = max(1, batch_size)
        self.job_timeout = int(job_timeout) + 30
        self.flag = f"modhub:webhooks:{queue_name}:relay-pending"

    @classmethod
    def from_settings(cls, settings) -> RQDispatcher | None:
        """The dispatcher of the configured Redis, or None in the embedded mode."""
        if not settings.redis_url:
            return None
        conn = redis.Redis.from_url(settings.redis_url, socket_connect_timeout=2, socket_timeout=5)
        job_timeout = settings.webhook_lease_seconds * 2
        return cls(conn, settings.webhook_queue, settings.webhook_batch_size, job_timeout)

    def notify(self, event_ids: list[int], delivery_ids: list[int]) -> None:
        """After a commit: wake the relay for new events, send re-queued deliveries."""
        if event_ids:
            self.kick_relay()
        if delivery_ids:
            self.send(delivery_ids)

    def kick_relay(self) -> None:
        """Enqueue one relay job unless one is already waiting (coalesces bursts of commits)."""
        if self.redis.set(self.flag, "1", nx=True, ex=RELAY_FLAG_SECONDS):
            self.queue.enqueue(RELAY_JOB, at_front=True, ttl=JOB_TTL, result_ttl=0, failure_ttl=86400,
                               job_timeout=self.job_timeout)

    def relay_started(self) -> None:
        """Called by the relay job before it reads the outbox, so later commits kick again."""
        self.redis.delete(self.flag)

    def send(self, delivery_ids: list[int]) -> None:
        """Enqueue delivery jobs for these deliveries, in batches."""
        if not delivery_ids:
            return
        jobs = [Queue.prepare_data(DELIVER_JOB, args=(delivery_ids[i:i + self.batch_size],),
                                   ttl=JOB_TTL, result_ttl=0, failure_ttl=86400,
                                   timeout=self.job_timeout)
                for i in range(0, len(delivery_ids), self.batch_size)]
        self.queue.enqueue_many(jobs)

    def retry_at(self, delivery_id: int, when: dt.datetime) -> None:
        """Schedule a retry with RQ's scheduler (run by `modhub worker`).

        RQ keeps the time in whole seconds, truncated: a job due at 12.4 s would run at 12 s,
        find its delivery not yet due, and leave it to the sweep's lease grace (30 s late). The
        time is rounded up to the next whole second instead.
        """
        if when.microsecond:
            when = when.replace(microsecond=0) + dt.timedelta(seconds=1)
        self.queue.enqueue_at(when, DELIVER_JOB, [delivery_id], result_ttl=0, failure_ttl=86400,
                              job_timeout=self.job_timeout)


def attach(db, dispatcher) -> None:
    """Make sessions of this database notify the dispatcher after each commit with new events."""
    if dispatcher is not None:
        db.sessions.configure(info={NOTIFIER: dispatcher.notify})


def relay_pending(rt, *, older_than: dt.datetime | None = None) -> list[int]:
    """Fan committed, unrelayed events out to ACTIVE subscriptions; return the new delivery ids."""
    created: list[int] = []
    while True:
        batch = _relay_batch(rt, older_than)
        if batch is None:
            return created
        created.extend(batch)


def _relay_batch(rt, older_than) -> list[int] | None:
    now = rt.clock()
    with rt.db.session() as session, session.begin():
        query = (select(OutboxEvent.id, OutboxEvent.kind).where(OutboxEvent.relayed_at.is_(None))
                 .order_by(OutboxEvent.id).limit(RELAY_LIMIT).with_for_update(skip_locked=True))
        if older_than is not None:
            query = query.where(OutboxEvent.created_at <= older_than)
        events = session.execute(query).all()
        if not events:
            return None
        subs = session.execute(
            select(WebhookSubscription.id, WebhookSubscription.events)
            .join(Application, Application.id == WebhookSubscription.app_id)
            .where(WebhookSubscription.status == SubscriptionStatus.ACTIVE,
                   Application.status == AppStatus.APPROVED)).all()
        rows = [{"event_id": e.id, "subscription_id": s.id, "status": DeliveryStatus.PENDING,
                 "attempts": 0, "next_attempt_at": now, "created_at": now}
                for e in events for s in subs if e.kind in (s.events or [])]
        ids = list(session.scalars(insert(WebhookDelivery).returning(WebhookDelivery.id), rows)) \
            if rows else []
        session.execute(update(OutboxEvent).where(OutboxEvent.id.in_([e.id for e in events]))
                        .values(relayed_at=now))
    log.debug("relayed %d event(s) into %d delivery(ies)", len(events), len(ids))
    return ids


def overdue_deliveries(rt, *, grace: dt.timedelta, limit: int = 5000) -> list[int]:
    """PENDING deliveries due for longer than `grace` (their job was lost or their worker died)."""
    with rt.db.session() as session:
        return list(session.scalars(
            select(WebhookDelivery.id)
            .where(WebhookDelivery.status == DeliveryStatus.PENDING,
                   WebhookDelivery.next_attempt_at <= rt.clock() - grace)
            .order_by(WebhookDelivery.next_attempt_at).limit(limit)))


def relay_job() -> int:
    """RQ job: relay every committed event now; send the first batch, enqueue the rest."""
    from workers.delivery import deliver_many
    from workers.runtime import current
    rt = current()
    rt.dispatcher.relay_started()
    ids = relay_pending(rt)
    size = rt.settings.webhook_batch_size
    rt.dispatcher.send(ids[size:])  # other workers take these while this one sends the first batch
    deliver_many(rt, ids[:size])  # saves a queue round trip for the common small burst
    return len(ids)


def sweep(rt) -> tuple[int, int]:
    """Relay events left behind (Redis down at commit) and re-enqueue overdue deliveries."""
    period = dt.timedelta(seconds=rt.settings.webhook_sweep_seconds)
    relayed = relay_pending(rt, older_than=rt.clock() - period)
    rt.dispatcher.send(relayed)
    overdue = overdue_deliveries(rt, grace=dt.timedelta(seconds=rt.settings.webhook_lease_seconds))
    rt.dispatcher.send(overdue)
    if relayed or overdue:
        log.info("sweep: relayed %d delivery(ies) left in the outbox, re-enqueued %d overdue",
                 len(relayed), len(overdue))
    return len(relayed), len(overdue)
