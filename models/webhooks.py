"""Webhook subscriptions, outbox events, deliveries and attempts, and the subscription life cycle."""

from __future__ import annotations

import datetime as dt
import enum
import secrets

from sqlalchemy import JSON, Enum, ForeignKey, Index, String, Text, UniqueConstraint, select
from sqlalchemy.orm import Mapped, Session, mapped_column

from models.base import Base
from models.identity import Application
from models.types import UTCDateTime, big_id, id_pk, utc_time, utcnow
from modhub.crypto import SecretBox
from modhub.errors import ApiError
from modhub.webhooks import EVENT_KINDS, CallbackRefused, check_callback

ROTATION_GRACE = dt.timedelta(hours=24)


class SubscriptionStatus(enum.StrEnum):
    """ACTIVE receives events; PAUSED receives none (not queued); DISABLED was stopped by the
    service (410 Gone, or failing for 5 days) until resumed."""

    ACTIVE = "ACTIVE"
    PAUSED = "PAUSED"
    DISABLED = "DISABLED"


class DeliveryStatus(enum.StrEnum):
    """PENDING (due at next_attempt_at), SUCCEEDED, FAILED (retries exhausted or 410), DROPPED
    (the subscription was no longer ACTIVE when its turn came)."""

    PENDING = "PENDING"
    SUCCEEDED = "SUCCEEDED"
    FAILED = "FAILED"
    DROPPED = "DROPPED"


def _enum(cls, name: str):
    return Enum(cls, name=name, native_enum=False, length=16)


class WebhookSubscription(Base):
    """An application's callback URL, the event kinds it wants, its status and its secrets."""

    __tablename__ = "webhook_subscription"

    id: Mapped[id_pk]
    app_id: Mapped[big_id] = mapped_column(ForeignKey("application.id"), index=True)
    url: Mapped[str] = mapped_column(String(2048))
    events: Mapped[list] = mapped_column(JSON, default=list)
    status: Mapped[SubscriptionStatus] = mapped_column(
        _enum(SubscriptionStatus, "webhook_subscription_status"), default=SubscriptionStatus.ACTIVE)
    secret_encrypted: Mapped[str] = mapped_column(Text)
    previous_secret_encrypted: Mapped[str | None] = mapped_column(Text)
    previous_secret_expires_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime())
    failing_since: Mapped[dt.datetime | None] = mapped_column(UTCDateTime())
    disabled_reason: Mapped[str | None] = mapped_column(String(255))
    created_at: Mapped[utc_time] = mapped_column(default=utcnow)
    updated_at: Mapped[utc_time] = mapped_column(default=utcnow, onupdate=utcnow)

    def live_secrets(self, box: SecretBox, now: dt.datetime) -> list[str]:
        """The secrets to sign with: the current one, then the previous one within 24 h."""
        live = [box.open(self.secret_encrypted)]
        if self.previous_secret_encrypted and self.previous_secret_expires_at and \
                now < self.previous_secret_expires_at:
            live.append(box.open(self.previous_secret_encrypted))
        return live


class OutboxEvent(Base):
    """A domain event, written in the transaction of the change it describes (the outbox)."""

    __tablename__ = "webhook_event"
    __table_args__ = (Index("ix_webhook_event_unrelayed", "relayed_at", "id"),)

    id: Mapped[id_pk]
    event_id: Mapped[str] = mapped_column(String(40), unique=True)
    kind: Mapped[str] = mapped_column(String(32))
    data: Mapped[dict] = mapped_column(JSON)
    created_at: Mapped[utc_time] = mapped_column(default=utcnow, index=True)
    relayed_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime())


class WebhookDelivery(Base):
    """One event for one subscription; the source of truth of what is still to be sent."""

    __tablename__ = "webhook_delivery"
    __table_args__ = (
        UniqueConstraint("event_id", "subscription_id", name="uq_webhook_delivery_event_subscription"),
        Index("ix_webhook_delivery_due", "status", "next_attempt_at"),
    )

    id: Mapped[id_pk]
    event_id: Mapped[big_id] = mapped_column(ForeignKey("webhook_event.id", ondelete="CASCADE"))
    subscription_id: Mapped[big_id] = mapped_column(
        ForeignKey("webhook_subscription.id", ondelete="CASCADE"), index=True)
    status: Mapped[DeliveryStatus] = mapped_column(
        _enum(DeliveryStatus, "webhook_delivery_status"), default=DeliveryStatus.PENDING)
    attempts: Mapped[int] = mapped_column(default=0)
    # Due time while PENDING; also the lease of a worker sending it (claimed = pushed ahead).
    next_attempt_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime())
    last_status_code: Mapped[int | None]
    last_error: Mapped[str | None] = mapped_column(String(500))
    created_at: Mapped[utc_time] = mapped_column(default=utcnow, index=True)
    completed_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime())


class WebhookAttempt(Base):
    """One HTTP attempt of a delivery: when, answer status, latency, response excerpt, error."""

    __tablename__ = "webhook_attempt"

    id: Mapped[id_pk]
    delivery_id: Mapped[big_id] = mapped_column(
        ForeignKey("webhook_delivery.id", ondelete="CASCADE"), index=True)
    number: Mapped[int]
    attempted_at: Mapped[utc_time]
    status_code: Mapped[int | None]
    latency_ms: Mapped[int]
    response_excerpt: Mapped[str | None] = mapped_column(String(500))
    error: Mapped[str | None] = mapped_column(String(500))


def new_secret() -> str:
    """A webhook secret: `whsec_` and 32 random bytes, URL-safe Base64."""
    return "whsec_" + secrets.token_urlsafe(32)


def _check_events(events) -> list[str]:
    chosen = sorted(set(events or EVENT_KINDS))
    unknown = [e for e in chosen if e not in EVENT_KINDS]
    if unknown:
        raise ApiError("PARAMETER_INVALID", f"unknown event kind(s): {', '.join(unknown)}; "
                                            f"choose among {', '.join(EVENT_KINDS)}")
    return chosen


def create(session: Session, box: SecretBox, *, app_id: int, url: str, events=(),
           allow_private: bool = False) -> tuple[WebhookSubscription, str]:
    """Subscribe an application; returns the subscription and its secret (shown once)."""
    if session.get(Application, app_id) is None:
        raise ApiError("RECORD_NOT_FOUND", f"application {app_id} does not exist")
    try:
        check_callback(url, allow_private=allow_private)
    except CallbackRefused as exc:
        raise ApiError("PARAMETER_INVALID", str(exc)) from exc
    secret = new_secret()
    sub = WebhookSubscription(app_id=app_id, url=url, events=_check_events(events),
                              status=SubscriptionStatus.ACTIVE, secret_encrypted=box.seal(secret))
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


def set_status(session: Session, *, subscription_id: int, status: SubscriptionStatus,
               reason: str | None = None) -> WebhookSubscription:
    """Pause, resume (ACTIVE, which also forgets past failures) or disable a subscription."""
    sub = get_or_raise(session, subscription_id=subscription_id)
    sub.status = status
    sub.disabled_reason = reason if status is SubscriptionStatus.DISABLED else None
    if status is SubscriptionStatus.ACTIVE:
        sub.failing_since = None
    session.flush()
    return sub


def rotate_secret(session: Session, box: SecretBox, *, subscription_id: int,
                  now: dt.datetime | None = None) -> tuple[WebhookSubscription, str]:
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


def describe(sub: WebhookSubscription) -> dict:
    """A subscription as the CLI prints it (never its secrets)."""
    return {"subscriptionId": sub.id, "appId": sub.app_id, "url": sub.url, "events": sub.events,
            "status": sub.status.value, "disabledReason": sub.disabled_reason,
            "failingSince": _iso(sub.failing_since),
            "previousSecretValidUntil": _iso(sub.previous_secret_expires_at),
            "createdAt": _iso(sub.created_at)}


def _iso(value: dt.datetime | None) -> str | None:
    return value.isoformat() if value else None
