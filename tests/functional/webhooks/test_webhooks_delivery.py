"""Delivery against a real loopback receiver: signature, headers, body, retries (500, timeout,
3xx, Retry-After), 410, PAUSED, the 5-day rule, secret rotation and the SSRF check at send time."""

from __future__ import annotations

import datetime as dt
import json
import logging
import time

import pytest
from sqlalchemy import select

import modhub.core.webhook_signing
from models.webhooks import service as webhooks
from models.webhooks.events import emit
from models.webhooks.tables import DeliveryStatus, SubscriptionStatus, WebhookAttempt, WebhookDelivery
from modhub.core.webhook_signing import verify_signature
from tests.functional.webhooks.receiver import Reply, spec_signature
from workers.relay import relay_pending
from workers.webhook_post import deliver_many


def _emit(db, kind="resource.published", data=None) -> str:
    with db.session() as session, session.begin():
        return emit(session, kind=kind, data=data or {"postId": 7, "title": "Better Trees"}).event_id


def _delivery(db, delivery_id) -> WebhookDelivery:
    with db.session() as session:
        return session.get(WebhookDelivery, delivery_id)


def _attempts(db, delivery_id) -> list[WebhookAttempt]:
    with db.session() as session:
        return list(
            session.scalars(
                select(WebhookAttempt)
                .where(WebhookAttempt.delivery_id == delivery_id)
                .order_by(WebhookAttempt.number)
            )
        )


def test_delivery_is_signed_and_shaped_as_the_spec_says(db, rt, receiver, subscribe):
    _, secret = subscribe(receiver.url)
    event_id = _emit(db, data={"postId": 7, "title": "Better Trees", "mainName": "Better Trees"})
    [delivery_id] = relay_pending(rt)
    [outcome] = deliver_many(rt, [delivery_id])
    [got] = receiver.wait_for(1)
    h = got.headers
    assert outcome.ok and h["content-type"] == "application/json"
    assert h["x-webhook-event"] == "resource.published" and h["x-webhook-id"] == event_id
    ts = h["x-webhook-timestamp"]
    assert len(ts) == 13 and abs(int(ts) / 1000 - time.time()) < 60
    assert h["x-webhook-signature"] == spec_signature(secret, h["x-webhook-timestamp"], got.body)
    assert h["x-webhook-signature"] == h["x-webhook-signature"].lower()
    data = {"postId": 7, "title": "Better Trees", "mainName": "Better Trees"}
    assert json.loads(got.body) == {"event": "resource.published", "data": data}
    assert verify_signature(secret, h["x-webhook-timestamp"], got.body, h["x-webhook-signature"])
    assert not verify_signature("whsec_wrong", h["x-webhook-timestamp"], got.body, h["x-webhook-signature"])
    d = _delivery(db, delivery_id)
    assert d.status is DeliveryStatus.SUCCEEDED and d.attempts == 1 and d.last_status_code == 200
    [attempt] = _attempts(db, delivery_id)
    assert attempt.status_code == 200 and attempt.response_excerpt == "ok" and attempt.latency_ms >= 0


def test_a_500_is_retried_on_schedule_with_the_same_id(db, rt, receiver, subscribe, clock):
    subscribe(receiver.url)
    receiver.replies = [Reply(500)]
    event_id = _emit(db)
    [delivery_id] = relay_pending(rt)
    deliver_many(rt, [delivery_id])
    d = _delivery(db, delivery_id)
    assert d.status is DeliveryStatus.PENDING and d.attempts == 1 and d.last_status_code == 500
    delay = d.next_attempt_at - clock.now
    assert dt.timedelta(seconds=4.5) <= delay <= dt.timedelta(seconds=5.5)
    assert rt.dispatcher.retries == [(delivery_id, d.next_attempt_at)]
    assert deliver_many(rt, [delivery_id]) == []  # not due yet: nothing is sent
    clock.advance(seconds=6)
    deliver_many(rt, [delivery_id])
    first, second = receiver.wait_for(2)
    assert first.headers["x-webhook-id"] == second.headers["x-webhook-id"] == event_id
    assert first.body == second.body
    assert _delivery(db, delivery_id).status is DeliveryStatus.SUCCEEDED
    assert [a.status_code for a in _attempts(db, delivery_id)] == [500, 200]


def test_a_timeout_is_a_failure_and_retried(db, rt, receiver, subscribe, clock):
    subscribe(receiver.url)
    receiver.replies = [Reply(200, delay=2.0)]  # longer than the 1 s timeout of this runtime
    _emit(db)
    [delivery_id] = relay_pending(rt)
    deliver_many(rt, [delivery_id])
    [attempt] = _attempts(db, delivery_id)
    assert attempt.status_code is None and "timed out" in attempt.error
    clock.advance(seconds=6)
    deliver_many(rt, [delivery_id])
    assert _delivery(db, delivery_id).status is DeliveryStatus.SUCCEEDED
    assert len(receiver.wait_for(2)) == 2


@pytest.mark.parametrize("status", [302, 404, 429])
def test_anything_but_2xx_is_a_failure(db, rt, receiver, subscribe, status):
    subscribe(receiver.url)
    receiver.replies = [Reply(status, headers={"Location": receiver.url})]
    _emit(db)
    [delivery_id] = relay_pending(rt)
    deliver_many(rt, [delivery_id])
    d = _delivery(db, delivery_id)
    assert d.status is DeliveryStatus.PENDING and d.last_status_code == status and d.attempts == 1
    assert len(receiver.wait_for(1)) == 1


def test_retry_after_is_honoured(db, rt, receiver, subscribe, clock):
    subscribe(receiver.url)
    receiver.replies = [Reply(503, headers={"Retry-After": "120"})]
    _emit(db)
    [delivery_id] = relay_pending(rt)
    deliver_many(rt, [delivery_id])
    assert _delivery(db, delivery_id).next_attempt_at - clock.now == dt.timedelta(seconds=120)


def test_410_disables_the_subscription(db, rt, receiver, subscribe, caplog):
    sub_id, _ = subscribe(receiver.url)
    receiver.replies = [Reply(410)]
    _emit(db)
    [delivery_id] = relay_pending(rt)
    with caplog.at_level(logging.WARNING):
        deliver_many(rt, [delivery_id])
    d = _delivery(db, delivery_id)
    assert d.status is DeliveryStatus.FAILED and "410" in d.last_error
    with db.session() as session:
        sub = webhooks.get_or_raise(session, subscription_id=sub_id)
        assert sub.status is SubscriptionStatus.DISABLED and "410" in sub.disabled_reason
    assert "OWNER NOTICE" in caplog.text
    _emit(db)
    assert relay_pending(rt) == []  # a disabled subscription gets no new deliveries


def test_paused_subscription_receives_nothing(db, rt, receiver, subscribe):
    sub_id, _ = subscribe(receiver.url)
    _emit(db)
    [owed] = relay_pending(rt)  # queued before the pause
    with db.session() as session, session.begin():
        webhooks.set_status(session, subscription_id=sub_id, status=SubscriptionStatus.PAUSED)
    _emit(db)
    assert relay_pending(rt) == []  # raised during the pause: not queued
    deliver_many(rt, [owed])
    d = _delivery(db, owed)
    assert d.status is DeliveryStatus.DROPPED and "PAUSED" in d.last_error
    assert receiver.received == []


def test_only_subscribed_kinds_are_delivered(db, rt, receiver, subscribe):
    subscribe(receiver.url, events=["server.status.online"])
    _emit(db, kind="resource.published")
    assert relay_pending(rt) == []
    _emit(db, kind="server.status.online", data={"postId": 3, "title": "Lobby"})
    assert len(relay_pending(rt)) == 1


def test_schedule_runs_out_then_the_delivery_fails(db, rt, receiver, subscribe, clock):
    subscribe(receiver.url)
    receiver.replies = [Reply(500) for _ in range(8)]
    _emit(db)
    [delivery_id] = relay_pending(rt)
    for _ in range(8):
        deliver_many(rt, [delivery_id])
        clock.advance(hours=12)
    d = _delivery(db, delivery_id)
    assert d.status is DeliveryStatus.FAILED and d.attempts == 8 and "gave up" in d.last_error
    assert len(receiver.wait_for(8)) == 8


def test_failing_for_five_days_disables_and_tells_the_owner(db, rt, receiver, subscribe, clock, caplog):
    sub_id, _ = subscribe(receiver.url)
    receiver.replies = [Reply(500) for _ in range(3)]
    _emit(db)
    [first] = relay_pending(rt)
    deliver_many(rt, [first])
    clock.advance(days=5)
    _emit(db)
    [second] = relay_pending(rt)
    with caplog.at_level(logging.WARNING):
        deliver_many(rt, [second])
    d = _delivery(db, second)
    assert d.status is DeliveryStatus.FAILED and "failing for 5 days" in d.last_error
    assert "owner" in d.last_error and "OWNER NOTICE" in caplog.text
    with db.session() as session:
        assert webhooks.get_or_raise(session, subscription_id=sub_id).status is SubscriptionStatus.DISABLED
    assert deliver_many(rt, [first]) and _delivery(db, first).status is DeliveryStatus.DROPPED


def test_rotated_secret_signs_with_both_for_24_hours(db, rt, receiver, subscribe, clock):
    sub_id, old = subscribe(receiver.url)
    with db.session() as session, session.begin():
        _, new = webhooks.rotate_secret(session, rt.secrets, subscription_id=sub_id, now=clock.now)
    _emit(db)
    deliver_many(rt, relay_pending(rt))
    clock.advance(hours=24, seconds=1)
    _emit(db)
    deliver_many(rt, relay_pending(rt))
    during, after = receiver.wait_for(2)
    assert len(during.headers["x-webhook-signature"].split(",")) == 2
    assert during.signed_by(new) and during.signed_by(old)
    assert during.headers["x-webhook-signature"].split(",")[0] == spec_signature(
        new, during.headers["x-webhook-timestamp"], during.body
    )
    assert after.signed_by(new) and not after.signed_by(old)
    assert "," not in after.headers["x-webhook-signature"]


def test_private_callback_is_refused_again_at_delivery_time(db, rt, receiver, subscribe):
    subscribe(receiver.url)  # registered while private callbacks were allowed
    strict = rt.settings.replace(webhook_allow_private=False)
    rt.settings = strict
    _emit(db)
    [delivery_id] = relay_pending(rt)
    deliver_many(rt, [delivery_id])
    [attempt] = _attempts(db, delivery_id)
    assert attempt.status_code is None and "private" in attempt.error
    assert receiver.received == []


def test_the_sender_connects_to_the_checked_address(db, rt, receiver, subscribe, monkeypatch):
    # "hooks.invalid" cannot resolve: it arrives only if the checked address (loopback) is used.
    port = receiver.server.server_port
    monkeypatch.setattr(modhub.core.webhook_signing, "resolve", lambda host, _port: ["127.0.0.1"])
    subscribe(f"http://hooks.invalid:{port}/hook")
    _emit(db)
    [delivery_id] = relay_pending(rt)
    deliver_many(rt, [delivery_id])
    [got] = receiver.wait_for(1)
    assert got.headers["host"] == f"hooks.invalid:{port}"
    assert _delivery(db, delivery_id).status is DeliveryStatus.SUCCEEDED
