"""The RQ dispatcher: hands relay and delivery work to RQ, and `attach` makes a database's
sessions notify it after each commit with new events. It names the jobs (workers/jobs.py) by
their dotted path and imports no other worker module."""

from __future__ import annotations

import datetime as dt

import redis
from rq import Queue

from models.webhooks.events import NOTIFIER
from modhub.core.redis_store import bounded_client

RELAY_JOB = "workers.jobs.relay_job"
DELIVER_JOB = "workers.jobs.deliver_job"
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
        conn = bounded_client(settings.redis_url, settings.redis_timeout_seconds)
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
            self.queue.enqueue(
                RELAY_JOB,
                at_front=True,
                ttl=JOB_TTL,
                result_ttl=0,
                failure_ttl=86400,
                job_timeout=self.job_timeout,
            )

    def relay_started(self) -> None:
        """Called by the relay job before it reads the outbox, so later commits kick again."""
        self.redis.delete(self.flag)

    def send(self, delivery_ids: list[int], *, at_front: bool = False) -> None:
        """Enqueue delivery jobs for these deliveries, in batches.

        The relay puts the deliveries of fresh events at the front, as it puts its own jobs:
        behind the next relay job they would wait, during a sustained stream of commits, until
        the commits paused (measured: p95 commit-to-receipt 10-14 s in an unpaced burst).
        """
        if not delivery_ids:
            return
        jobs = [
            Queue.prepare_data(
                DELIVER_JOB,
                args=(delivery_ids[i : i + self.batch_size],),
                ttl=JOB_TTL,
                result_ttl=0,
                failure_ttl=86400,
                timeout=self.job_timeout,
                at_front=at_front,
            )
            for i in range(0, len(delivery_ids), self.batch_size)
        ]
        self.queue.enqueue_many(jobs[::-1] if at_front else jobs)  # each pushed to the front: oldest last

    def retry_at(self, delivery_id: int, when: dt.datetime) -> None:
        """Schedule a retry with RQ's scheduler (run by `modhub worker`).

        RQ keeps the time in whole seconds, truncated: a job due at 12.4 s would run at 12 s,
        find its delivery not yet due, and leave it to the sweep's lease grace (30 s late). The
        time is rounded up to the next whole second instead.
        """
        if when.microsecond:
            when = when.replace(microsecond=0) + dt.timedelta(seconds=1)
        self.queue.enqueue_at(
            when, DELIVER_JOB, [delivery_id], result_ttl=0, failure_ttl=86400, job_timeout=self.job_timeout
        )


def attach(db, dispatcher) -> None:
    """Make sessions of this database notify the dispatcher after each commit with new events."""
    if dispatcher is not None:
        db.sessions.configure(info={**(db.sessions.kw.get("info") or {}), NOTIFIER: dispatcher.notify})
