"""Fixtures of the webhook tests: a real loopback receiver, a movable clock, and a delivery runtime
over the rolled-back test database whose hand-overs to RQ are recorded instead of sent."""

from __future__ import annotations

import datetime as dt

import pytest

from models import webhooks
from models.events import NOTIFIER
from modhub.crypto import SecretBox
from tests.functional.webhooks.receiver import Receiver
from workers.runtime import Runtime


class Clock:
    """A settable clock: tests move time instead of sleeping."""

    def __init__(self, now: dt.datetime):
        self.now = now

    def __call__(self) -> dt.datetime:
        return self.now

    def advance(self, **delta) -> None:
        """Move the clock forward."""
        self.now += dt.timedelta(**delta)


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
    wh_settings = settings.replace(webhook_allow_private=True, webhook_timeout_seconds=1.0,
                                   webhook_lease_seconds=3.0, webhook_sweep_seconds=1.0)
    runtime = Runtime(settings=wh_settings, db=db, secrets=SecretBox(settings.encryption_key),
                      dispatcher=dispatcher, clock=clock)
    yield runtime
    runtime.http.close()


@pytest.fixture()
def subscribe(db, rt, make_app):
    """Factory: an application subscribed to the receiver; returns (subscription id, secret)."""
    def make(url: str, events=(), app_id: int | None = None) -> tuple[int, str]:
        app_id = app_id or make_app().app_id
        with db.session() as session, session.begin():
            sub, secret = webhooks.create(session, rt.secrets, app_id=app_id, url=url,
                                          events=events, allow_private=True)
            return sub.id, secret
    return make
