"""What an attempt's answer means: success, retry (with the schedule, jitter and Retry-After),
final failure, 410 Gone (disable), or drop; and the record of every attempt."""

from __future__ import annotations

import datetime as dt
import email.utils
import logging
import random
from dataclasses import dataclass
from typing import cast
from urllib.parse import urlsplit

from sqlalchemy import Table, bindparam, insert, select, update

from models.identity.tables import Application
from models.webhooks.tables import (
    DeliveryStatus,
    SubscriptionStatus,
    WebhookAttempt,
    WebhookDelivery,
    WebhookSubscription,
)

log = logging.getLogger(__name__)

# Delay before attempts 2..8 (attempt 1 is immediate); each is jittered by +-10 %.
RETRY_SCHEDULE = tuple(dt.timedelta(seconds=s) for s in (5, 300, 1800, 7200, 18000, 36000, 36000))
JITTER = 0.10
# The jitter's own generator: the process-wide `random` state belongs to whoever else runs in the
# process (the relay is a thread of the API server, and of the test process under Hypothesis).
_JITTER_RNG = random.Random()
MAX_RETRY_AFTER = dt.timedelta(hours=24)
DISABLE_AFTER = dt.timedelta(days=5)


@dataclass
class Outcome:
    """The result of sending (or not sending) one delivery."""

    delivery_id: int
    attempted_at: dt.datetime
    status_code: int | None = None
    latency_ms: int = 0
    excerpt: str | None = None
    error: str | None = None
    retry_after: str | None = None
    dropped: str | None = None

    @property
    def ok(self) -> bool:
        """2xx, and only 2xx, is success (3xx included in failures)."""
        return self.status_code is not None and 200 <= self.status_code < 300

    @property
    def description(self) -> str:
        """A short text for the delivery record."""
        return self.error or f"HTTP {self.status_code}"


def retry_delay(
    attempts_made: int, retry_after: str | None, now: dt.datetime, rng: random.Random | None = None
) -> dt.timedelta | None:
    """Delay before the next attempt, or None when the schedule is exhausted."""
    if attempts_made > len(RETRY_SCHEDULE):
        return None
    base = RETRY_SCHEDULE[attempts_made - 1]
    delay = base * (1 + (rng or _JITTER_RNG).uniform(-JITTER, JITTER))
    asked = parse_retry_after(retry_after, now)
    return max(delay, min(asked, MAX_RETRY_AFTER)) if asked else delay


def parse_retry_after(value: str | None, now: dt.datetime) -> dt.timedelta | None:
    """Retry-After as delta seconds or an HTTP date; None when absent or malformed."""
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return dt.timedelta(seconds=int(value))
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=dt.UTC)
    return max(when - now, dt.timedelta(0))


def record(rt, outcomes: list[Outcome], leftover: list[int], lease_end: dt.datetime):
    """Store the attempts and the new delivery states; returns the retries to schedule.

    Set-based: one locking read of the batch, one of its subscriptions, then one batched INSERT
    and UPDATE at the flush, so a batch costs a handful of statements, not five per delivery.
    """
    retries: list[tuple[int, dt.datetime]] = []
    ids = [o.delivery_id for o in outcomes] + list(leftover)
    if not ids:
        return retries
    with rt.db.session() as session, session.begin():
        if (
            not leftover
            and all(o.ok and not o.dropped for o in outcomes)
            and _record_successes(session, outcomes, lease_end)
        ):
            return retries
        rows = {
            d.id: d
            for d in session.scalars(
                select(WebhookDelivery).where(WebhookDelivery.id.in_(ids)).with_for_update()
            )
        }
        sub_ids = {d.subscription_id for d in rows.values()}
        subs = {
            s.id: s
            for s in session.scalars(select(WebhookSubscription).where(WebhookSubscription.id.in_(sub_ids)))
        }
        for outcome in outcomes:
            delivery = rows.get(outcome.delivery_id)
            # Skip what was removed, or re-claimed by another worker after our lease ran out.
            if (
                delivery is None
                or delivery.status is not DeliveryStatus.PENDING
                or delivery.next_attempt_at != lease_end
            ):
                continue
            when = _apply(session, delivery, subs[delivery.subscription_id], outcome)
            if when is not None:
                retries.append((delivery.id, when))
        for delivery_id in leftover:
            delivery = rows.get(delivery_id)
            if delivery is not None and delivery.next_attempt_at == lease_end:
                delivery.next_attempt_at = rt.clock()
    return retries


def _record_successes(session, outcomes: list[Outcome], lease_end: dt.datetime) -> bool:
    """The common batch, every delivery answered 2xx, in Core statements (no ORM objects, the
    same rows locked and written as the general path). False, having written nothing, when a
    subscription of the batch is marked failing: the general path clears the mark."""
    # declarative types __table__ as a FromClause; these mapped classes each have a Table
    deliveries, attempts = cast(Table, WebhookDelivery.__table__), cast(Table, WebhookAttempt.__table__)
    rows = {
        r.id: r
        for r in session.execute(
            select(
                deliveries.c.id,
                deliveries.c.subscription_id,
                deliveries.c.status,
                deliveries.c.attempts,
                deliveries.c.next_attempt_at,
            )
            .where(deliveries.c.id.in_(bindparam("ids", expanding=True)))
            .with_for_update(),
            {"ids": [o.delivery_id for o in outcomes]},
        )
    }
    sub_ids = list({r.subscription_id for r in rows.values()})
    if sub_ids and session.scalar(
        select(WebhookSubscription.id)
        .where(
            WebhookSubscription.id.in_(bindparam("subs", expanding=True)),
            WebhookSubscription.failing_since.is_not(None),
        )
        .limit(1),
        {"subs": sub_ids},
    ):
        return False
    tried, done = [], []
    for outcome in outcomes:
        row = rows.get(outcome.delivery_id)
        # Skip what was removed, or re-claimed by another worker after our lease ran out.
        if row is None or row.status != DeliveryStatus.PENDING or row.next_attempt_at != lease_end:
            continue
        tried.append(
            {
                "delivery_id": row.id,
                "number": row.attempts + 1,
                "attempted_at": outcome.attempted_at,
                "status_code": outcome.status_code,
                "latency_ms": outcome.latency_ms,
                "response_excerpt": outcome.excerpt,
                "error": None,
            }
        )
        done.append(
            {
                "b_id": row.id,
                "b_attempts": row.attempts + 1,
                "b_code": outcome.status_code,
                "b_at": outcome.attempted_at,
            }
        )
    if tried:
        session.execute(insert(attempts), tried)
        session.execute(
            update(deliveries)
            .where(deliveries.c.id == bindparam("b_id"))
            .values(
                attempts=bindparam("b_attempts"),
                last_status_code=bindparam("b_code"),
                last_error=None,
                status=DeliveryStatus.SUCCEEDED,
                completed_at=bindparam("b_at"),
                next_attempt_at=None,
            ),
            done,
        )
    return True


def _apply(
    session, delivery: WebhookDelivery, sub: WebhookSubscription, outcome: Outcome
) -> dt.datetime | None:
    now = outcome.attempted_at
    if outcome.dropped:
        _finish(delivery, DeliveryStatus.DROPPED, now, f"dropped: {outcome.dropped}")
        return None
    delivery.attempts += 1
    session.add(
        WebhookAttempt(
            delivery_id=delivery.id,
            number=delivery.attempts,
            attempted_at=now,
            status_code=outcome.status_code,
            latency_ms=outcome.latency_ms,
            response_excerpt=outcome.excerpt,
            error=outcome.error,
        )
    )
    delivery.last_status_code, delivery.last_error = outcome.status_code, outcome.error
    if outcome.ok:
        _finish(delivery, DeliveryStatus.SUCCEEDED, now, None)
        if sub.failing_since is not None:
            sub.failing_since = None
        return None
    if outcome.status_code == 410:
        _disable(session, sub, "the receiver answered 410 Gone")
        _finish(delivery, DeliveryStatus.FAILED, now, "410 Gone: subscription disabled")
        return None
    sub.failing_since = sub.failing_since or now
    if now - sub.failing_since >= DISABLE_AFTER:
        reason = f"failing for 5 days in a row (since {sub.failing_since:%Y-%m-%d %H:%M} UTC)"
        _disable(session, sub, reason)
        _finish(
            delivery,
            DeliveryStatus.FAILED,
            now,
            f"{outcome.description}; subscription disabled: {reason}; the application's "
            f"owner was told in the service log",
        )
        return None
    delay = retry_delay(delivery.attempts, outcome.retry_after, now)
    if delay is None:
        _finish(
            delivery,
            DeliveryStatus.FAILED,
            now,
            f"{outcome.description}; gave up after {delivery.attempts} attempts",
        )
        return None
    delivery.next_attempt_at = now + delay
    return delivery.next_attempt_at


def _finish(delivery: WebhookDelivery, status: DeliveryStatus, now: dt.datetime, note) -> None:
    delivery.status, delivery.completed_at, delivery.next_attempt_at = status, now, None
    if note is not None:
        delivery.last_error = note[:500]


def _disable(session, sub: WebhookSubscription, reason: str) -> None:
    if sub.status is SubscriptionStatus.DISABLED:
        return
    sub.status, sub.disabled_reason = SubscriptionStatus.DISABLED, reason[:255]
    app = session.scalar(select(Application).where(Application.id == sub.app_id))
    # The owner notice: applications have no contact address yet, so the log carries it.
    log.warning(
        "OWNER NOTICE: webhook subscription %s of application %s (%s) to %s was disabled: "
        "%s; resume it with `modhub webhook resume %s`",
        sub.id,
        sub.app_id,
        app.name if app else "?",
        _without_query(sub.url),
        reason,
        sub.id,
    )


def _without_query(url: str) -> str:
    # A callback URL may carry a token in its query string: never write that to the log.
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc.rpartition('@')[2]}{parts.path}"
