"""`modhub maintenance run`: the maintenance jobs, once (for cron or the systemd timer)."""

from __future__ import annotations

import json

import click

from modhub.cli.common import load_platform


@click.group()
def maintenance() -> None:
    """Scheduled maintenance: storage sweep, identity purge, download flush, webhook retention."""


@maintenance.command("run")
@click.option(
    "--only",
    multiple=True,
    type=click.Choice(["storage-sweep", "identity-purge", "downloads-flush", "webhook-retention"]),
    help="Run only this job (repeatable); all of them by default.",
)
def maintenance_run(only: tuple[str, ...]) -> None:
    """Run the jobs in order and print each one's counts as one JSON object (exit 1 when a job
    failed; the others still ran)."""
    from workers.maintenance import run

    results = run(load_platform(), only=only)
    click.echo(json.dumps(results, sort_keys=True))
    if any("error" in r for r in results.values()):
        raise SystemExit(1)
