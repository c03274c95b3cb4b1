"""Webhook subscriptions' life cycle (create, pause, rotate, remove) and the delivery log (list
deliveries with their attempts, redeliver an event, replay failures, send a test event).
"""

from __future__ import annotations

import datetime as dt
import secrets
from collections.abc import Iterable
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from models.identity.tables import Application
from models.types import rowcount, utcnow
from models.webhooks.events import after_commit_deliver
from models.webhooks.tables import (
    DeliveryStatus,
    OutboxEvent,
    SubscriptionStatus,
    WebhookAttempt,
    WebhookDelivery,
    WebhookSubscription,
)
from modhub.core.crypto import SecretBox
from modhub.core.errors import ApiError
from modhub.core.webhook_signing import EVENT_KINDS, CallbackRefused, check_callback

ROTATION_GRACE = dt.timedelta(hours=24)


def new_secret() -> str:
    """A webhook secret: `whsec_` and 32 random bytes, URL-safe Base64."""
    return "whsec_" + secrets.token_urlsafe(32)


def _check_events(events: Iterable[str] | None) -> list[str]:
    chosen = sorted(set(events or EVENT_KINDS))
    unknown = [e for e in chosen if e not in EVENT_KINDS]
    if unknown:
        raise ApiError(
            "PARAMETER_INVALID",
            f"unknown event kind(s): {', '.join(unknown)}; choose among {', '.join(EVENT_KINDS)}",
        )
    return chosen


def create(
    session: Session,
    box: SecretBox,
    *,
    app_id: int,
    url: str,
    events: Iterable[str] = (),
    allow_private: bool = False,
) -> tuple[WebhookSubscription, str]:
    """Subscribe an application; returns the subscription and its secret (shown once)."""
    if session.get(Application, app_id) is None:
        raise ApiError("RECORD_NOT_FOUND", f"application {app_id} does not exist")
    try:
        check_callback(url, allow_private=allow_private)
    except CallbackRefused as exc:
        raise ApiError("PARAMETER_INVALID", str(exc)) from exc
    secret = new_secret()
    sub = WebhookSubscription(
        app_id=app_id,
        url=url,
        events=_check_events(events),
        status=SubscriptionStatus.ACTIVE,
        secret_encrypted=box.seal(secret),
    )
    session.add(sub)
    session.flush()
    return sub, secret


def get_or_raise(session: Session, *, subscription_id: int) -> WebhookSubscription:
    """The subscription with this id, or RECORD_NOT_FOUND."""
    sub = session.get(WebhookSubscription, subscription_id)
    if sub is None:
        raise ApiError("RECORD_NOT_FOUND", f"webhook subscription {subscription_id} does not exist")
    return sub


def list_(session: Session, *, app_id: int | None = None) -> list[WebhookSubscription]:
    """Subscriptions, oldest first, optionally of one application."""
    query = select(WebhookSubscription).order_by(WebhookSubscription.id)
    if app_id is not None:
        query = query.where(WebhookSubscription.app_id == app_id)
    return list(session.scalars(query))


def set_status(
    session: Session, *, subscription_id: int, status: SubscriptionStatus, reason: str | None = None
) -> WebhookSubscription:
    """Pause, resume (ACTIVE, which also forgets past failures) or disable a subscription."""
    sub = get_or_raise(session, subscription_id=subscription_id)
    sub.status = status
    sub.disabled_reason = reason if status is SubscriptionStatus.DISABLED else None
    if status is SubscriptionStatus.ACTIVE:
        sub.failing_since = None
    session.flush()
    return sub


def rotate_secret(
    session: Session, box: SecretBox, *, subscription_id: int, now: dt.datetime | None = None
) -> tuple[WebhookSubscription, str]:
    """Replace the secret; the old one still signs (second value) for 24 h. Returns the new one."""
    sub = get_or_raise(session, subscription_id=subscription_id)
    now = now or utcnow()
    secret = new_secret()
    sub.previous_secret_encrypted = sub.secret_encrypted
    sub.previous_secret_expires_at = now + ROTATION_GRACE
    sub.secret_encrypted = box.seal(secret)
    session.flush()
    return sub, secret


def remove(session: Session, *, subscription_id: int) -> None:
    """Delete a subscription with its delivery log."""
    session.delete(get_or_raise(session, subscription_id=subscription_id))
    session.flush()


def list_deliveries(
    session: Session,
    *,
    subscription_id: int | None = None,
    event_id: str | None = None,
    status: str | None = None,
    limit: int = 50,
) -> list[dict[str, Any]]:
    """Deliveries, newest first, each with its attempts, as plain dicts."""
    query = (
        select(WebhookDelivery, OutboxEvent)
        .join(OutboxEvent, OutboxEvent.id == WebhookDelivery.event_id)
        .order_by(WebhookDelivery.id.desc())
        .limit(limit)
    )
    if subscription_id is not None:
        query = query.where(WebhookDelivery.subscription_id == subscription_id)
    if event_id is not None:
        query = query.where(OutboxEvent.event_id == event_id)
    if status is not None:
        query = query.where(WebhookDelivery.status == DeliveryStatus(status))
    rows = session.execute(query).all()
    attempts = _attempts(session, [d.id for d, _ in rows])
    return [_describe(d, e, attempts.get(d.id, [])) for d, e in rows]


def _attempts(session: Session, delivery_ids: list[int]) -> dict[int, list[dict[str, Any]]]:
    found: dict[int, list[dict[str, Any]]] = {}
    if not delivery_ids:
        return found
    for a in session.scalars(
        select(WebhookAttempt)
        .where(WebhookAttempt.delivery_id.in_(delivery_ids))
        .order_by(WebhookAttempt.delivery_id, WebhookAttempt.number)
    ):
        found.setdefault(a.delivery_id, []).append(
            {
                "number": a.number,
                "at": a.attempted_at.isoformat(),
                "statusCode": a.status_code,
                "latencyMs": a.latency_ms,
                "responseExcerpt": a.response_excerpt,
                "error": a.error,
            }
        )
    return found


def _describe(d: WebhookDelivery, e: OutboxEvent, attempts: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "deliveryId": d.id,
        "eventId": e.event_id,
        "event": e.kind,
        "subscriptionId": d.subscription_id,
        "status": d.status.value,
        "attempts": attempts,
        "nextAttemptAt": d.next_attempt_at.isoformat() if d.next_attempt_at else None,
        "lastStatusCode": d.last_status_code,
        "lastError": d.last_error,
        "createdAt": d.created_at.isoformat(),
        "completedAt": d.completed_at.isoformat() if d.completed_at else None,
    }


def _requeue(session: Session, deliveries: list[WebhookDelivery], now: dt.datetime) -> list[int]:
    for d in deliveries:
        d.status, d.next_attempt_at, d.completed_at = DeliveryStatus.PENDING, now, None
    session.flush()
    ids = [d.id for d in deliveries]
    after_commit_deliver(session, ids)
    return ids


def redeliver(
    session: Session, *, event_id: str, subscription_id: int | None = None, now: dt.datetime | None = None
) -> list[int]:
    """Queue an event again (whatever its deliveries' state) once the transaction commits."""
    event = session.scalar(select(OutboxEvent).where(OutboxEvent.event_id == event_id))
    if event is None:
        raise ApiError("RECORD_NOT_FOUND", f"webhook event {event_id} does not exist")
    query = select(WebhookDelivery).where(WebhookDelivery.event_id == event.id)
    if subscription_id is not None:
        query = query.where(WebhookDelivery.subscription_id == subscription_id)
    deliveries = list(session.scalars(query.with_for_update()))
    if not deliveries:
        raise ApiError(
            "RECORD_NOT_FOUND",
            f"webhook event {event_id} has no delivery to send again "
            "(no subscription wanted it when it was relayed)",
        )
    return _requeue(session, deliveries, now or utcnow())


def replay(
    session: Session,
    *,
    since: dt.datetime,
    subscription_id: int | None = None,
    now: dt.datetime | None = None,
) -> list[int]:
    """Queue again every FAILED delivery of the events raised since a time."""
    query = (
        select(WebhookDelivery)
        .join(OutboxEvent, OutboxEvent.id == WebhookDelivery.event_id)
        .where(WebhookDelivery.status == DeliveryStatus.FAILED, OutboxEvent.created_at >= since)
    )
    if subscription_id is not None:
        query = query.where(WebhookDelivery.subscription_id == subscription_id)
    deliveries = list(session.scalars(query.with_for_update(of=WebhookDelivery)))
    return _requeue(session, deliveries, now or utcnow())


TEST_KIND = "webhook.test"


def send_test(session: Session, *, subscription_id: int, now: dt.datetime | None = None) -> str:
    """Queue a `webhook.test` event to this one subscription (not fanned out); returns its id."""
    import uuid

    sub = get_or_raise(session, subscription_id=subscription_id)
    now = now or utcnow()
    event = OutboxEvent(
        event_id=str(uuid.uuid4()),
        kind=TEST_KIND,
        created_at=now,
        relayed_at=now,
        data={"subscriptionId": sub.id, "message": "test event from the developer console"},
    )
    session.add(event)
    session.flush()
    delivery = WebhookDelivery(
        event_id=event.id,
        subscription_id=sub.id,
        status=DeliveryStatus.PENDING,
        attempts=0,
        next_attempt_at=now,
        created_at=now,
    )
    session.add(delivery)
    session.flush()
    after_commit_deliver(session, [delivery.id])
    return event.event_id


def purge_finished(session: Session, *, before: dt.datetime) -> dict[str, int]:
    """Delete the deliveries that ended (succeeded, failed, dropped) before `before`, their
    attempts, and the relayed events left with no delivery; pending deliveries are never touched.
    Returns how many rows of each kind went."""
    finished = (DeliveryStatus.SUCCEEDED, DeliveryStatus.FAILED, DeliveryStatus.DROPPED)
    old = select(WebhookDelivery.id).where(
        WebhookDelivery.status.in_(finished), WebhookDelivery.completed_at < before
    )
    attempts = session.execute(delete(WebhookAttempt).where(WebhookAttempt.delivery_id.in_(old)))
    deliveries = session.execute(delete(WebhookDelivery).where(WebhookDelivery.id.in_(old)))
    events = session.execute(
        delete(OutboxEvent).where(
            OutboxEvent.relayed_at.is_not(None),
            OutboxEvent.created_at < before,
            ~select(WebhookDelivery.id).where(WebhookDelivery.event_id == OutboxEvent.id).exists(),
        )
    )
    return {"deliveries": rowcount(deliveries), "attempts": rowcount(attempts), "events": rowcount(events)}
