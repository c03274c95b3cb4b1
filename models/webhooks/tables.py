"""Mapped classes of webhooks: subscriptions, outbox events, deliveries and attempts."""

from __future__ import annotations

import datetime as dt
import enum
from typing import Any

from sqlalchemy import JSON, Enum, ForeignKey, Index, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from models.base import Base
from models.types import UTCDateTime, big_id, id_pk, utc_time, utcnow
from modhub.core.crypto import SecretBox


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


def _enum(cls: type[enum.Enum], name: str) -> Enum:
    return Enum(cls, name=name, native_enum=False, length=16)


class WebhookSubscription(Base):
    """An application's callback URL, the event kinds it wants, its status and its secrets."""

    __tablename__ = "webhook_subscription"

    id: Mapped[id_pk]
    app_id: Mapped[big_id] = mapped_column(ForeignKey("application.id"), index=True)
    url: Mapped[str] = mapped_column(String(2048))
    events: Mapped[list[str]] = mapped_column(JSON, default=list)
    status: Mapped[SubscriptionStatus] = mapped_column(
        _enum(SubscriptionStatus, "webhook_subscription_status"), default=SubscriptionStatus.ACTIVE
    )
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
        if (
            self.previous_secret_encrypted
            and self.previous_secret_expires_at
            and now < self.previous_secret_expires_at
        ):
            live.append(box.open(self.previous_secret_encrypted))
        return live


class OutboxEvent(Base):
    """A domain event, written in the transaction of the change it describes (the outbox)."""

    __tablename__ = "webhook_event"
    __table_args__ = (Index("ix_webhook_event_unrelayed", "relayed_at", "id"),)

    id: Mapped[id_pk]
    event_id: Mapped[str] = mapped_column(String(40), unique=True)
    kind: Mapped[str] = mapped_column(String(32))
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
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
        ForeignKey("webhook_subscription.id", ondelete="CASCADE"), index=True
    )
    status: Mapped[DeliveryStatus] = mapped_column(
        _enum(DeliveryStatus, "webhook_delivery_status"), default=DeliveryStatus.PENDING
    )
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
        ForeignKey("webhook_delivery.id", ondelete="CASCADE"), index=True
    )
    number: Mapped[int]
    attempted_at: Mapped[utc_time]
    status_code: Mapped[int | None]
    latency_ms: Mapped[int]
    response_excerpt: Mapped[str | None] = mapped_column(String(500))
    error: Mapped[str | None] = mapped_column(String(500))
