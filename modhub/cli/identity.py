"""`modhub identity ...`: purge expired codes, tickets and wallet idempotency keys."""

from __future__ import annotations

import datetime as dt
import json

import click

from modhub.cli.common import load_platform


@click.group()
def identity() -> None:
    """Authorization codes, pairing codes and SSO tickets."""


@identity.command("purge")
@click.option(
    "--grace-hours",
    default=24,
    show_default=True,
    type=click.IntRange(min=0),
    help="Keep expired rows this long (for support look-ups) before deleting them.",
)
def purge(grace_hours: int) -> None:
    """Delete expired codes and tickets; prints how many of each were removed, as JSON."""
    from models.identity import oauth

    platform = load_platform()
    with platform.db.session() as session, session.begin():
        removed = oauth.purge_expired(session, now=platform.clock(), grace=dt.timedelta(hours=grace_hours))
    click.echo(json.dumps(removed))
