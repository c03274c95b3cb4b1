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
