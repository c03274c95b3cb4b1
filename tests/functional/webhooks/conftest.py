"""Fixtures of the webhook tests: a real loopback receiver, a movable clock, and a delivery runtime
over the rolled-back test database whose hand-overs to RQ are recorded instead of sent."""

from __future__ import annotations

import datetime as dt
import os
import uuid
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import redis
import rq

from models.webhooks import service as webhooks
from models.webhooks.events import NOTIFIER
from modhub.app import build_platform
from modhub.core.crypto import SecretBox
from modhub.settings import Settings
from tests.conftest import RUN_PG_URL
from tests.functional.webhooks.processes import RedisServer, Worker, wait_until
from tests.functional.webhooks.receiver import Receiver
from tests.support import Clock, drop_database, migrated_database
from workers.runtime import Runtime


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


@pytest.fixture()
def receiver():
    """A real HTTP receiver on 127.0.0.1, random free port."""
    r = Receiver().start()
    yield r
    r.stop()


@pytest.fixture()
def clock():
    """A clock frozen at the current time."""
    return Clock(dt.datetime.now(dt.UTC).replace(microsecond=0))


@pytest.fixture()
def dispatcher(db):
    """The recording dispatcher, attached to the test database's sessions."""
    d = RecordingDispatcher()
    db.sessions.configure(info={NOTIFIER: d.notify})
    return d


@pytest.fixture()
def rt(settings, db, clock, dispatcher):
    """A delivery runtime: loopback allowed, 1 s timeout, 3 s lease, injected clock."""
    wh_settings = settings.replace(
        webhook_allow_private=True,
        webhook_timeout_seconds=1.0,
        webhook_lease_seconds=3.0,
        webhook_sweep_seconds=1.0,
    )
    runtime = Runtime(
        settings=wh_settings,
        db=db,
        secrets=SecretBox(settings.encryption_key),
        dispatcher=dispatcher,
        clock=clock,
    )
    yield runtime
    runtime.close()


@pytest.fixture()
def subscribe(db, rt, make_app):
    """Factory: an application subscribed to the receiver; returns (subscription id, secret)."""

    def make(url: str, events=(), app_id: int | None = None) -> tuple[int, str]:
        app_id = app_id or make_app().app_id
        with db.session() as session, session.begin():
            sub, secret = webhooks.create(
                session, rt.secrets, app_id=app_id, url=url, events=events, allow_private=True
            )
            return sub.id, secret

    return make


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


@pytest.fixture()
def stack(tmp_path, settings):
    """Committed data across processes: its own migrated database and its own redis-server."""
    db_url = settings.database_url.rsplit("/", 1)[0] + f"/modhub_test_webhooks_e2e_{uuid.uuid4().hex[:8]}"
    migrated_database(db_url, RUN_PG_URL)
    server = RedisServer(tmp_path).start()
    wh = settings.replace(
        database_url=db_url,
        redis_url=server.url,
        webhook_allow_private=True,
        webhook_queue=f"webhooks-test-{uuid.uuid4().hex[:8]}",
        webhook_timeout_seconds=2.0,
        webhook_lease_seconds=3.0,
        webhook_sweep_seconds=0.5,
    )
    env = {
        **os.environ,
        "MODHUB_DATABASE_URL": db_url,
        "MODHUB_REDIS_URL": server.url,
        "MODHUB_ENCRYPTION_KEY": wh.encryption_key,
        "MODHUB_DATA_DIR": str(tmp_path),
        "MODHUB_WEBHOOK_ALLOW_PRIVATE": "1",
        "MODHUB_WEBHOOK_QUEUE": wh.webhook_queue,
        "MODHUB_WEBHOOK_TIMEOUT_SECONDS": "2",
        "MODHUB_WEBHOOK_LEASE_SECONDS": "3",
        "MODHUB_WEBHOOK_SWEEP_SECONDS": "0.5",
        "MODHUB_PRODUCTION": "0",
    }
    s = Stack(db_url, server, wh, env, tmp_path)
    yield s
    for worker in s.workers:
        worker.stop()
    server.stop()
    drop_database(db_url)
