"""`modhub webhook ...`: manage subscriptions and read or replay the delivery log."""

from __future__ import annotations

import datetime as dt
import json
from zoneinfo import ZoneInfo

import click

from modhub.cli.common import load_platform, run_or_fail
from modhub.core.webhook_signing import EVENT_KINDS


@click.group()
def webhook() -> None:
    """Webhook subscriptions and their delivery log."""


@webhook.command("add")
@click.option("--app", "app_id", type=int, required=True, help="Application id.")
@click.option(
    "--url",
    required=True,
    help="Callback URL (https; http to loopback only when MODHUB_WEBHOOK_ALLOW_PRIVATE=1).",
)
@click.option(
    "--event",
    "events",
    multiple=True,
    type=click.Choice(EVENT_KINDS),
    help="Event kind to receive (repeat; default: all seven).",
)
def add(app_id: int, url: str, events) -> None:
    """Subscribe an application; prints the subscription and its secret once, as JSON."""
    from models.webhooks import service as webhooks
    from models.webhooks.records import describe

    platform = load_platform()
    with platform.db.session() as session, session.begin():
        sub, secret = run_or_fail(
            lambda: webhooks.create(
                session,
                platform.secrets,
                app_id=app_id,
                url=url,
                events=events,
                allow_private=platform.settings.webhook_allow_private,
            )
        )
        out = {**describe(sub), "secret": secret}
    click.echo(json.dumps(out))


@webhook.command("list")
@click.option("--app", "app_id", type=int, help="Only this application's subscriptions.")
def list_(app_id: int | None) -> None:
    """List subscriptions as JSON lines (never their secrets)."""
    from models.webhooks import service as webhooks
    from models.webhooks.records import describe

    platform = load_platform()
    with platform.db.session() as session:
        for sub in webhooks.list_(session, app_id=app_id):
            click.echo(json.dumps(describe(sub)))


def _set_status(subscription_id: int, status_name: str) -> None:
    from models.webhooks import service as webhooks
    from models.webhooks.records import describe
    from models.webhooks.tables import SubscriptionStatus

    platform = load_platform()
    with platform.db.session() as session, session.begin():
        sub = run_or_fail(
            lambda: webhooks.set_status(
                session, subscription_id=subscription_id, status=SubscriptionStatus[status_name]
            )
        )
        out = describe(sub)
    click.echo(json.dumps(out))


@webhook.command("pause")
@click.argument("subscription_id", type=int)
def pause(subscription_id: int) -> None:
    """Pause a subscription: events raised while paused are not queued for it."""
    _set_status(subscription_id, "PAUSED")


@webhook.command("resume")
@click.argument("subscription_id", type=int)
def resume(subscription_id: int) -> None:
    """Resume a paused or disabled subscription (its failure streak starts over)."""
    _set_status(subscription_id, "ACTIVE")


@webhook.command("rotate-secret")
@click.argument("subscription_id", type=int)
def rotate_secret(subscription_id: int) -> None:
    """Replace the secret; prints the new one once. The old one still signs for 24 h."""
    from models.webhooks import service as webhooks
    from models.webhooks.records import describe

    platform = load_platform()
    with platform.db.session() as session, session.begin():
        sub, secret = run_or_fail(
            lambda: webhooks.rotate_secret(session, platform.secrets, subscription_id=subscription_id)
        )
        out = {**describe(sub), "secret": secret}
    click.echo(json.dumps(out))


@webhook.command("remove")
@click.argument("subscription_id", type=int)
def remove(subscription_id: int) -> None:
    """Delete a subscription and its delivery log."""
    from models.webhooks import service as webhooks

    platform = load_platform()
    with platform.db.session() as session, session.begin():
        run_or_fail(lambda: webhooks.remove(session, subscription_id=subscription_id))
    click.echo(f"webhook subscription {subscription_id} removed", err=True)


@webhook.command("deliveries")
@click.option("--subscription", "subscription_id", type=int, help="Only this subscription.")
@click.option("--event", "event_id", help="Only this event id (X-Webhook-Id).")
@click.option("--status", type=click.Choice(["PENDING", "SUCCEEDED", "FAILED", "DROPPED"]))
@click.option("--limit", type=click.IntRange(1, 10000), default=50, show_default=True)
def deliveries(subscription_id, event_id, status, limit) -> None:
    """Print deliveries, newest first, each with every attempt, as JSON lines."""
    from models.webhooks import service as webhooks

    platform = load_platform()
    with platform.db.session() as session:
        for row in webhooks.list_deliveries(
            session, subscription_id=subscription_id, event_id=event_id, status=status, limit=limit
        ):
            click.echo(json.dumps(row, ensure_ascii=False))


@webhook.command("redeliver")
@click.argument("event_id")
@click.option("--subscription", "subscription_id", type=int, help="Only to this subscription.")
def redeliver(event_id: str, subscription_id: int | None) -> None:
    """Send an event again (same X-Webhook-Id) to the subscriptions it was delivered to."""
    from models.webhooks import service as webhooks

    platform = load_platform()
    with platform.db.session() as session, session.begin():
        ids = run_or_fail(
            lambda: webhooks.redeliver(session, event_id=event_id, subscription_id=subscription_id)
        )
    click.echo(json.dumps({"eventId": event_id, "requeued": len(ids)}))


@webhook.command("replay")
@click.option(
    "--since",
    required=True,
    help="ISO 8601 time; without an offset it is read in MODHUB_TIME_ZONE (e.g. '2026-11-21 09:00:00').",
)
@click.option("--subscription", "subscription_id", type=int, help="Only this subscription.")
def replay(since: str, subscription_id: int | None) -> None:
    """Re-queue every FAILED delivery of an event raised since TIME."""
    from models.webhooks import service as webhooks

    platform = load_platform()
    start = _parse_time(since, platform.display.time_zone)
    with platform.db.session() as session, session.begin():
        ids = webhooks.replay(session, since=start, subscription_id=subscription_id)
    click.echo(json.dumps({"since": start.isoformat(), "requeued": len(ids)}))


def _parse_time(text: str, zone: str) -> dt.datetime:
    try:
        value = dt.datetime.fromisoformat(text.strip())
    except ValueError as exc:
        raise click.BadParameter(f"not an ISO 8601 time: {text!r}", param_hint="--since") from exc
    if value.tzinfo is None:
        value = value.replace(tzinfo=ZoneInfo(zone))
    return value.astimezone(dt.UTC)
