"""Helpers of the webhooks tests (imported by their conftest and by any test that needs them)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from pathlib import Path

import redis
import rq

from modhub.app import build_platform
from modhub.settings import Settings
from tests.functional.webhooks.processes import RedisServer, Worker, wait_until


class RecordingDispatcher:
    """Stands in for RQ: records what would be enqueued, so tests drive the jobs themselves."""

    def __init__(self):
        self.notified: list[tuple[list[int], list[int]]] = []
        self.sent: list[int] = []
        self.retries: list[tuple[int, dt.datetime]] = []

    def notify(self, event_ids, delivery_ids):
        """After-commit hand-over."""
        self.notified.append((list(event_ids), list(delivery_ids)))

    def send(self, delivery_ids):
        """Delivery jobs."""
        self.sent.extend(delivery_ids)

    def retry_at(self, delivery_id, when):
        """Scheduled retries."""
        self.retries.append((delivery_id, when))


@dataclass
class Stack:
    """A dedicated database, a private Redis, the settings and environment of worker processes."""

    db_url: str
    redis: RedisServer
    settings: Settings
    env: dict
    tmp: Path
    workers: list = field(default_factory=list)

    def platform(self):
        """A platform over the dedicated database whose commits hand events to the private RQ."""
        return build_platform(self.settings)

    def start_worker(self) -> Worker:
        """One more `modhub worker` process, returned once it listens on the queue."""
        worker = Worker(self.env, self.tmp / f"worker-{len(self.workers)}.log", self.settings.webhook_queue)
        self.workers.append(worker)
        live = sum(w.proc.poll() is None for w in self.workers)
        with redis.Redis.from_url(self.redis.url) as conn:
            queue = rq.Queue(self.settings.webhook_queue, connection=conn)
            wait_until(
                lambda: rq.Worker.count(connection=conn, queue=queue) >= live,
                what=f"{live} worker(s) listening",
            )
        return worker
