"""The delivery job: claim deliveries (a lease), POST each signed event, record every attempt.

Idempotent and safe to run twice: a delivery is sent only by the job that moved its
`next_attempt_at` from due to the lease's end; a worker killed mid-request leaves the lease to
expire, after which the sweep enqueues it again (at least once; receivers dedupe by X-Webhook-Id).
"""

from __future__ import annotations

import datetime as dt
import http.client
import logging
import time
from dataclasses import dataclass

from sqlalchemy import bindparam, select, update

from models.webhooks.tables import (
    DeliveryStatus,
    OutboxEvent,
    SubscriptionStatus,
    WebhookDelivery,
    WebhookSubscription,
)
from modhub import metrics
from modhub.core.webhook_signing import CallbackRefused, check_callback, encode_body, signature_header
from workers.http import EXCERPT_BYTES
from workers.outcomes import Outcome, record

log = logging.getLogger(__name__)


@dataclass
class Outgoing:
    """Everything needed to send one delivery, read before any network I/O."""

    delivery_id: int
    event_uid: str
    kind: str
    data: dict
    url: str
    status: SubscriptionStatus
    secrets: list[str]


def deliver_many(rt, delivery_ids: list[int]) -> list[Outcome]:
    """Claim, send and record a batch of deliveries; schedule retries after the commit."""
    claimed_at = rt.clock()
    lease_end = claimed_at + dt.timedelta(seconds=rt.settings.webhook_lease_seconds)
    items = _claim_and_load(rt, delivery_ids, claimed_at, lease_end)
    last_start = lease_end - dt.timedelta(seconds=rt.settings.webhook_timeout_seconds)
    refusals = _check_callbacks(rt, items)

    def attempt(item: Outgoing) -> Outcome | None:
        # Never start a request that could outlive the lease: another worker would repeat it.
        return send(rt, item, refusals[item.url]) if rt.clock() < last_start else None

    # Concurrent within the batch: the receivers' round trips overlap instead of adding up.
    results = list(rt.pool.map(attempt, items)) if len(items) > 1 else [attempt(i) for i in items]
    outcomes = [r for r in results if r is not None]
    for outcome in outcomes:
        metrics.webhook_delivered("succeeded" if outcome.ok else "dropped" if outcome.dropped else "failed")
    leftover = [i.delivery_id for i, r in zip(items, results, strict=True) if r is None]
    retries = record(rt, outcomes, leftover, lease_end)
    _hand_over(rt, retries, leftover)
    return outcomes


def _claim_and_load(rt, ids, claimed_at, lease_end) -> list[Outgoing]:
    with rt.db.session() as session, session.begin():
        claimed = list(
            session.scalars(
                update(WebhookDelivery.__table__)
                .where(
                    WebhookDelivery.id.in_(bindparam("ids", expanding=True)),
                    WebhookDelivery.status == DeliveryStatus.PENDING,
                    WebhookDelivery.next_attempt_at <= claimed_at,
                )
                .values(next_attempt_at=lease_end)
                .returning(WebhookDelivery.id),
                {"ids": list(ids)},
            )
        )
        if not claimed:
            return []
        rows = session.execute(
            select(
                WebhookDelivery.id,
                OutboxEvent.event_id,
                OutboxEvent.kind,
                OutboxEvent.data,
                WebhookSubscription,
            )
            .join(OutboxEvent, OutboxEvent.id == WebhookDelivery.event_id)
            .join(WebhookSubscription, WebhookSubscription.id == WebhookDelivery.subscription_id)
            .where(WebhookDelivery.id.in_(bindparam("claimed", expanding=True)))
            .order_by(WebhookDelivery.id),
            {"claimed": claimed},
        ).all()
        secrets: dict[int, list[str]] = {}  # decrypted once per subscription, not per row
        for r in rows:
            if r[4].id not in secrets:
                secrets[r[4].id] = r[4].live_secrets(rt.secrets, claimed_at)
        return [Outgoing(r[0], r[1], r[2], r[3], r[4].url, r[4].status, secrets[r[4].id]) for r in rows]


def _check_callbacks(rt, items: list[Outgoing]) -> dict[str, tuple[str | None, str | None]]:
    """The SSRF rule, again at send time, once per distinct URL of the batch (DNS changes):
    {url: (refusal, address to connect to)}."""
    verdicts: dict[str, tuple[str | None, str | None]] = {}
    for url in {i.url for i in items}:
        try:
            addresses = check_callback(url, allow_private=rt.settings.webhook_allow_private)
            verdicts[url] = (None, addresses[0])
        except CallbackRefused as exc:
            verdicts[url] = (str(exc), None)
    return verdicts


def send(rt, item: Outgoing, verdict: tuple[str | None, str | None] = (None, None)) -> Outcome:
    """One signed POST (or the reason it was not sent)."""
    attempted_at = rt.clock()
    refused, address = verdict
    if item.status is not SubscriptionStatus.ACTIVE:
        return Outcome(item.delivery_id, attempted_at, dropped=f"subscription is {item.status.value}")
    if refused:
        return Outcome(item.delivery_id, attempted_at, error=refused)
    body = encode_body(item.kind, item.data)
    # The timestamp is wall-clock time: receivers compare it with their own clocks.
    timestamp = str(int(time.time() * 1000))
    headers = {
        "Content-Type": "application/json",
        "User-Agent": "modhub-webhooks/1",
        "X-Webhook-Event": item.kind,
        "X-Webhook-Id": item.event_uid,
        "X-Webhook-Timestamp": timestamp,
        "X-Webhook-Signature": signature_header(item.secrets, timestamp, body),
    }
    started = time.perf_counter()
    try:
        answer = rt.sender.post(item.url, body, headers, address)
    except TimeoutError:
        return Outcome(
            item.delivery_id,
            attempted_at,
            latency_ms=_ms(started),
            error=f"timed out after {rt.settings.webhook_timeout_seconds:g} s",
        )
    except (OSError, http.client.HTTPException) as exc:
        return Outcome(
            item.delivery_id,
            attempted_at,
            latency_ms=_ms(started),
            error=f"{type(exc).__name__}: {exc}"[:EXCERPT_BYTES],
        )
    return Outcome(
        item.delivery_id,
        attempted_at,
        latency_ms=_ms(started),
        status_code=answer.status,
        excerpt=answer.excerpt,
        retry_after=answer.headers.get("Retry-After"),
    )


def _ms(started: float) -> int:
    return int((time.perf_counter() - started) * 1000)


def _hand_over(rt, retries: list[tuple[int, dt.datetime]], leftover: list[int]) -> None:
    if rt.dispatcher is None:
        return  # embedded mode: the in-process relay finds due deliveries itself
    try:
        for delivery_id, when in retries:
            rt.dispatcher.retry_at(delivery_id, when)
        rt.dispatcher.send(leftover)
    except Exception:  # noqa: BLE001 - the rows are PENDING with a due time; the sweep sends them
        log.warning("could not schedule %d retry(ies) in Redis; the sweep will", len(retries), exc_info=True)
