"""Helpers every `modhub` command shares: settings and the platform from the environment, and
domain errors shown as one-line command errors."""

from __future__ import annotations

import functools
import getpass
import json
import socket
from pathlib import Path

import click

from modhub.settings import SettingsError, from_env


class SettingsFailure(click.ClickException):
    """A bad or missing setting: one line on stderr and exit status 2 (a configuration error)."""

    exit_code = 2


def load_settings():
    """Settings from the MODHUB_* environment; a bad value is a command error, not a traceback."""
    try:
        return from_env()
    except SettingsError as exc:
        raise SettingsFailure(str(exc)) from exc


def load_platform():
    """The platform (database, storage, secrets) the commands act through, built from the settings
    (the collector paused meanwhile: modhub.core.startup)."""
    settings = load_settings()
    from sqlalchemy.engine import make_url

    path = make_url(settings.database_url).database if settings.embedded else None
    if path and path != ":memory:" and not Path(path).exists():
        raise click.ClickException(
            f"{Path(path).parent} is not a modhub data folder (no {Path(path).name} there). Start "
            "with `modhub run` or `modhub db upgrade` in the folder you want, or set MODHUB_DATA_DIR."
        )
    # Without Redis a command counts nothing that matters (its quota is never used to serve), so
    # it takes the in-process one explicitly: the serving processes' warning is not for cron.
    from modhub.core.startup import collector_paused
    from modhub.quota import LocalQuota

    with collector_paused():
        from modhub.app import build_platform

        return build_platform(settings, quota=None if settings.redis_url else LocalQuota())


def run_or_fail(fn):
    """Run a domain call; an ApiError becomes a one-line command error."""
    from modhub.core.errors import ApiError

    try:
        return fn()
    except ApiError as exc:
        raise click.ClickException(exc.message) from exc


def audited(command):
    """Record a command that succeeded in the admin audit table, as the admin pages record theirs:
    actor "cli:<os user>@<host>", the command's path and its parameters (commands that take a
    secret are not audited this way). Put it right above the function, under the click decorators."""

    @functools.wraps(command)
    def run(*args, **kwargs):
        result = command(*args, **kwargs)
        ctx = click.get_current_context()
        action = ctx.command_path.split(" ", 1)[-1]
        detail = json.dumps(kwargs, ensure_ascii=False, sort_keys=True, default=str)
        _record(action, detail)
        return result

    return run


def _record(action: str, detail: str) -> None:
    from models.console.admin import record_command
    from modhub.db import Database

    actor = f"cli:{getpass.getuser()}@{socket.gethostname()}"
    db = Database.from_url(load_settings().database_url)
    try:
        with db.session() as session, session.begin():
            record_command(session, actor=actor, action=action, detail=detail)
    finally:
        db.engine.dispose()
