"""`modhub storage ...`: checks of the file storage against the file records."""

from __future__ import annotations

import click

from modhub.cli.common import load_platform


@click.group("storage")
def storage() -> None:
    """File storage."""


@storage.command("check")
def storage_check() -> None:
    """Verify that every stored file's size and sha256 match its record (exit 1 on a mismatch)."""
    from models.files.service import check_storage

    platform = load_platform()
    with platform.db.session() as session:
        checked, problems = check_storage(session, platform.storage)
    for problem in problems:
        click.echo(problem, err=True)
    click.echo(f"{checked} stored objects checked, {len(problems)} problem(s)")
    if problems:
        raise SystemExit(1)


@storage.command("sweep")
@click.option(
    "--grace-minutes",
    default=60,
    show_default=True,
    help="Keep unreferenced lobby content this long after its last use.",
)
def storage_sweep(grace_minutes: int) -> None:
    """Remove expired lobby reservations, unreferenced lobby content and stale upload spool files."""
    import datetime as dt

    from models.lobby.sweep import sweep

    platform = load_platform()
    result = sweep(
        platform.db, platform.storage, grace=dt.timedelta(minutes=grace_minutes), progress=click.echo
    )
    click.echo(
        f"{result.reservations} expired reservation(s), {result.contents} content(s), "
        f"{result.spool_files} spool file(s) removed"
    )
