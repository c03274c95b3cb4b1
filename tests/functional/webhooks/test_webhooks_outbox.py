"""The outbox: events are rows of the caller's transaction, handed over only after its commit;
the relay fans out once; the delivery log lists, redelivers and replays."""

from __future__ import annotations

import datetime as dt

import pytest
from sqlalchemy import func, select

from models.webhooks import service as webhooks
from models.webhooks.events import emit
from models.webhooks.tables import DeliveryStatus, OutboxEvent, WebhookDelivery
from modhub.core.errors import ApiError
from tests.functional.webhooks.receiver import Reply
from workers.relay import overdue_deliveries, relay_pending
from workers.webhook_post import deliver_many


def _count(db, model) -> int:
    with db.session() as session:
        return session.scalar(select(func.count()).select_from(model))


def test_event_is_handed_over_only_after_commit(db, dispatcher):
    with db.session() as session:
        with session.begin():
            row = emit(session, kind="post.published", data={"postId": 1, "title": "Hi"})
            assert dispatcher.notified == []  # inside the transaction: nothing handed over
        assert dispatcher.notified == [([row.id], [])]
    with db.session() as session:
        session.begin()
        emit(session, kind="post.deleted", data={"postId": 1, "title": "Hi"})
        session.rollback()
    assert _count(db, OutboxEvent) == 1 and len(dispatcher.notified) == 1


def test_unknown_kind_is_refused(db):
    with db.session() as session, pytest.raises(ValueError):
        emit(session, kind="resource.exploded", data={})


def test_relay_fans_out_once_per_subscription(db, rt, receiver, subscribe, make_app):
    subscribe(receiver.url)
    subscribe(receiver.url)
    unapproved = make_app(approve=False).app_id
    subscribe(receiver.url, app_id=unapproved)  # its application is not approved: no delivery
    with db.session() as session, session.begin():
        for n in range(3):
            emit(session, kind="resource.updated", data={"postId": n, "title": "T"})
    assert len(relay_pending(rt)) == 6
    assert relay_pending(rt) == [] and _count(db, WebhookDelivery) == 6


def test_sweep_finds_what_a_lost_job_left(db, rt, receiver, subscribe, clock):
    subscribe(receiver.url)
    with db.session() as session, session.begin():
        emit(session, kind="resource.updated", data={"postId": 1, "title": "T"})
    [delivery_id] = relay_pending(rt)  # ... and its job was lost with Redis
    grace = dt.timedelta(seconds=rt.settings.webhook_lease_seconds)
    assert overdue_deliveries(rt, grace=grace) == []
    clock.advance(seconds=4)
    assert overdue_deliveries(rt, grace=grace) == [delivery_id]


def test_redeliver_and_replay(db, rt, receiver, subscribe, clock):
    sub_id, _ = subscribe(receiver.url)
    receiver.replies = [Reply(410)]
    with db.session() as session, session.begin():
        event_id = emit(session, kind="resource.deleted", data={"postId": 4, "title": "Old"}).event_id
    [delivery_id] = relay_pending(rt)
    deliver_many(rt, [delivery_id])
    with db.session() as session:
        [logged] = webhooks.list_deliveries(session, event_id=event_id)
    assert logged["status"] == "FAILED" and logged["attempts"][0]["statusCode"] == 410
    with db.session() as session, session.begin():
        assert webhooks.replay(session, since=clock.now - dt.timedelta(minutes=1), now=clock.now) == [
            delivery_id
        ]
    assert rt.dispatcher.notified[-1] == ([], [delivery_id])
    with db.session() as session, session.begin():
        assert webhooks.redeliver(session, event_id=event_id, now=clock.now) == [delivery_id]
        with pytest.raises(ApiError):
            webhooks.redeliver(session, event_id="no-such-event")
    with db.session() as session:
        d = session.get(WebhookDelivery, delivery_id)
        assert d.status is DeliveryStatus.PENDING and d.subscription_id == sub_id
