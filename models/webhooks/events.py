"""Domain events: `emit` writes an outbox row in the caller's transaction; after the commit the
session's notifier (set by workers.dispatch.attach) hands the new work to the relay.

Nothing is handed over before the commit, and a notifier that fails (Redis down) loses nothing:
the outbox and delivery rows stay, and the relay's periodic sweep picks them up.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Mapping
from datetime import datetime

from sqlalchemy import event
from sqlalchemy.orm import Session

from models.record_cache import catalog_changed
from models.types import utcnow
from models.webhooks.tables import OutboxEvent
from modhub.core.webhook_signing import EVENT_KINDS

log = logging.getLogger(__name__)
NOTIFIER = "outbox_notifier"
_EVENTS = "outbox_new_events"
_DELIVERIES = "outbox_due_deliveries"


def emit(
    session: Session, *, kind: str, data: Mapping[str, object], now: datetime | None = None
) -> OutboxEvent:
    """Record a domain event in the current transaction; it is relayed only once committed."""
    if kind not in EVENT_KINDS:
        raise ValueError(f"unknown event kind {kind!r}")
    row = OutboxEvent(event_id=str(uuid.uuid4()), kind=kind, data=dict(data), created_at=now or utcnow())
    session.add(row)
    session.flush()
    session.info.setdefault(_EVENTS, []).append(row.id)
    if kind.startswith("resource."):
        catalog_changed(session)  # kept records of the catalogue go stale (models.record_cache)
    return row


def after_commit_deliver(session: Session, delivery_ids: list[int]) -> None:
    """Ask for these (re-queued) deliveries to be sent once the transaction commits."""
    session.info.setdefault(_DELIVERIES, []).extend(delivery_ids)


@event.listens_for(Session, "after_commit")
def _after_commit(session: Session) -> None:
    events, deliveries = session.info.pop(_EVENTS, []), session.info.pop(_DELIVERIES, [])
    notifier = session.info.get(NOTIFIER)
    if not (events or deliveries) or notifier is None:
        return
    try:
        notifier(events, deliveries)
    except Exception:  # noqa: BLE001 - the commit stands; the sweep relays what was not handed over
        log.warning(
            "outbox: could not hand %d event(s) and %d delivery(ies) to the relay now; "
            "they stay in the database and the relay's sweep will send them",
            len(events),
            len(deliveries),
            exc_info=True,
        )


@event.listens_for(Session, "after_rollback")
def _after_rollback(session: Session) -> None:
    session.info.pop(_EVENTS, None)
    session.info.pop(_DELIVERIES, None)
