"""VO builder of a webhook subscription."""

from __future__ import annotations

import datetime as dt
from typing import Any

from models.webhooks.tables import WebhookSubscription


def describe(sub: WebhookSubscription) -> dict[str, Any]:
    """A subscription as the CLI prints it (never its secrets)."""
    return {
        "subscriptionId": sub.id,
        "appId": sub.app_id,
        "url": sub.url,
        "events": sub.events,
        "status": sub.status.value,
        "disabledReason": sub.disabled_reason,
        "failingSince": _iso(sub.failing_since),
        "previousSecretValidUntil": _iso(sub.previous_secret_expires_at),
        "createdAt": _iso(sub.created_at),
    }


def _iso(value: dt.datetime | None) -> str | None:
    return value.isoformat() if value else None
