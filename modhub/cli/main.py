"""The `modhub` command: database, applications, serving and workers."""

from __future__ import annotations

import json
import logging
import os
import shutil
import sys

import click
from cryptography.fernet import Fernet

from modhub import __version__, logs
from modhub.cli.admin import admin
from modhub.cli.apps import app
from modhub.cli.common import load_platform, load_settings
from modhub.cli.downloads import downloads, keys
from modhub.cli.identity import identity
from modhub.cli.maintenance import maintenance
from modhub.cli.moderate import moderate
from modhub.cli.storage import storage
from modhub.cli.webhooks import webhook

log = logging.getLogger("modhub")


SERVERS = ("serve", "run", "worker")  # long-running: their INFO lines are their log


@click.group()
@click.version_option(__version__, prog_name="modhub")
@click.pass_context
def main(ctx: click.Context) -> None:
    """modhub: the open API server of a game-modding community."""
    # One format in every process (MODHUB_LOG_FORMAT). A one-shot command (cron runs them) says
    # nothing on stderr when all is well: warnings and errors only, unless MODHUB_LOG_LEVEL asks.
    quiet = ctx.invoked_subcommand not in SERVERS and not os.environ.get("MODHUB_LOG_LEVEL")
    logs.configure(level="WARNING" if quiet else None)


@main.command()
def keygen() -> None:
    """Print a new encryption key for MODHUB_ENCRYPTION_KEY."""
    click.echo(Fernet.generate_key().decode())


@main.group()
def db() -> None:
    """Database schema."""


@db.command("upgrade")
def db_upgrade() -> None:
    """Migrate the database to the newest schema (under a lock: several hosts may run it at once)."""
    from modhub import migrate

    settings = load_settings()
    _ensure_sqlite_dir(settings)
    migrate.upgrade(settings.database_url)
    click.echo(migrate.state_of(settings.database_url).describe())


@db.command("downgrade")
@click.argument("revision")
def db_downgrade(revision: str) -> None:
    """Migrate the database down to REVISION (see `modhub db history`)."""
    from modhub import migrate

    settings = load_settings()
    try:
        migrate.downgrade(settings.database_url, revision)
    except migrate.CommandError as exc:
        raise click.ClickException(str(exc)) from None
    click.echo(migrate.state_of(settings.database_url).describe())


@db.command("current")
def db_current() -> None:
    """Print the database's schema revision(s), one a line (nothing when never migrated)."""
    from modhub import migrate

    for rev in sorted(migrate.state_of(load_settings().database_url).current):
        click.echo(rev)


@db.command("check")
def db_check() -> None:
    """Exit 0 when the schema is at the code's revision; 1 (one line on stderr) when behind or ahead."""
    from modhub import migrate

    state = migrate.state_of(load_settings().database_url)
    if state.status != "current":
        click.echo(state.describe(), err=True)
        sys.exit(1)
    click.echo(state.describe())


@db.command("history")
def db_history() -> None:
    """List the code's migrations, newest first."""
    from modhub import migrate

    for line in migrate.history():
        click.echo(line)


def _ensure_sqlite_dir(settings) -> None:
    if settings.embedded:
        settings.data_dir.mkdir(parents=True, exist_ok=True)


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=8000, show_default=True, type=int)
@click.option("--workers", default=1, show_default=True, type=click.IntRange(min=1))
def serve(host: str, port: int, workers: int) -> None:
    """Serve the API with uvicorn (production server; several worker processes)."""
    import uvicorn

    settings = load_settings()  # fail fast on a missing production secret, before forking workers
    startup_checks(settings)
    if not settings.redis_url and workers > 1:
        click.echo(
            f"warning: MODHUB_REDIS_URL is not set: each of the {workers} workers counts "
            "quotas on its own; run with Redis to share them",
            err=True,
        )
    _metrics_dir(settings, clean=True)
    uvicorn.run(
        "modhub.asgi:create",
        factory=True,
        host=host,
        port=port,
        workers=workers,
        proxy_headers=False,
        timeout_keep_alive=settings.keep_alive_seconds,
        access_log=False,  # modhub.access writes one record per request instead
        log_config=logs.dict_config(settings.log_format, settings.log_level),
        log_level=settings.log_level.lower(),
        timeout_graceful_shutdown=max(
            1, int(settings.shutdown_grace_seconds - settings.shutdown_drain_seconds)
        ),
    )


def _metrics_dir(settings, *, clean: bool) -> None:
    """Point this process and its children at the folder the worker processes share their metrics
    in (emptied by `serve` at start); set before prometheus_client is first imported."""
    path = settings.metrics_dir or settings.data_dir / "metrics"
    if clean:
        shutil.rmtree(path, ignore_errors=True)
    path.mkdir(parents=True, exist_ok=True)
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = str(path.resolve())


def startup_checks(settings) -> None:
    """Refuse to serve a schema behind or ahead of the code, and (production) without an install
    signing key; a database that does not answer yet is left to /readyz."""
    from modhub import migrate
    from modhub.db import connect_args

    if not settings.embedded and 2 * settings.handler_threads > settings.db_pool_size:
        log.warning(
            "MODHUB_HANDLER_THREADS=%d is over half of MODHUB_DB_POOL_SIZE=%d: each handler thread keeps "
            "a connection for its reads and takes another to write, so writes will open connections "
            "past the pool",
            settings.handler_threads,
            settings.db_pool_size,
        )
    try:
        state = migrate.state_of(settings.database_url, connect_args=connect_args(settings))
    except Exception as exc:  # noqa: BLE001 - unreachable now: start, and answer not-ready
        log.warning(
            "database not reachable at start (%s): /readyz answers 503 until it is", type(exc).__name__
        )
        return
    if state.status != "current":
        raise click.ClickException(state.describe())
    if settings.production and not settings.install_signing_key:
        from sqlalchemy import create_engine
        from sqlalchemy.orm import Session
        from sqlalchemy.pool import NullPool

        from models.downloads.keys import stored_key_exists

        engine = create_engine(settings.database_url, poolclass=NullPool, connect_args=connect_args(settings))
        try:
            with Session(engine) as session:
                stored = stored_key_exists(session)
        finally:
            engine.dispose()
        if not stored:
            raise click.ClickException(
                "production mode needs MODHUB_INSTALL_SIGNING_KEY or an install key in the database "
                "(modhub keys rotate-install-key)"
            )


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=8000, show_default=True, type=int)
def run(host: str, port: int) -> None:
    """Create the database, print a demo API key and secret, and serve (embedded quick start)."""
    from modhub import demo
    from modhub.migrate import upgrade

    base = f"http://{host}:{port}"
    # absolute links (/dl/...), display images (/media/...) and resource pages (/resource/...)
    # name this server unless set
    os.environ.setdefault("MODHUB_BASE_URL", base)
    os.environ.setdefault("MODHUB_SITE_URL", base)
    settings = load_settings()
    _ensure_sqlite_dir(settings)
    upgrade(settings.database_url)
    platform = load_platform()
    creds = demo.ensure_demo_app(platform, redirect_uri=f"{base}/demo/callback")
    password = demo.new_demo_password(platform, creds["demoUserId"])
    from modhub.seed import seed_cli

    seed_cli(platform, resources=200, only_if_empty=True)  # a small demo catalogue on first start
    platform.db.engine.dispose()
    import threading

    import uvicorn

    server = uvicorn.Server(
        uvicorn.Config(
            "modhub.asgi:create",
            factory=True,
            host=host,
            port=port,
            log_config=logs.dict_config(settings.log_format, settings.log_level),
            log_level=settings.log_level.lower(),
            access_log=False,  # modhub.access writes one record per request instead
            timeout_keep_alive=settings.keep_alive_seconds,
        )
    )

    def _banner() -> None:  # after uvicorn's start-up lines, not in the middle of them
        while not server.started and not server.should_exit:
            threading.Event().wait(0.1)
        if server.started:
            click.echo(demo.banner(creds, base, password, shared_quota=bool(settings.redis_url)), err=True)

    threading.Thread(target=_banner, daemon=True).start()
    server.run()


@main.group("demo")
def demo_group() -> None:
    """Demo data."""


@demo_group.command("seed")
@click.option(
    "--resources",
    default=1000,
    show_default=True,
    type=click.IntRange(min=1),
    help="Number of resource posts to create.",
)
def demo_seed(resources: int) -> None:
    """Fill an EMPTY database with a deterministic demo catalogue (same N, same data).

    Refuses (exit status 1) when sections or resource posts already exist: it never mixes demo
    rows into real data and is all-or-nothing (one transaction).
    """
    from modhub.seed import SeedRefused, seed_cli

    try:
        counts = seed_cli(load_platform(), resources=resources)
    except SeedRefused as exc:
        raise click.ClickException(str(exc)) from exc
    click.echo(json.dumps(counts))


@main.command()
@click.option(
    "--queue", "queues", multiple=True, help="Queue to work on (default: MODHUB_WEBHOOK_QUEUE, then default)."
)
@click.option(
    "--worker-class",
    type=click.Choice(["simple", "fork"]),
    default="simple",
    show_default=True,
    help="simple runs jobs in-process (measured faster); fork forks a child per job.",
)
@click.option("--burst", is_flag=True, help="Stop when the queues are empty.")
@click.option(
    "--log-level", type=click.Choice(["DEBUG", "INFO", "WARNING"]), default="INFO", show_default=True
)
def worker(queues, worker_class, burst, log_level) -> None:
    """Run an RQ worker (with the scheduler and the webhook sweep) over the configured Redis."""
    from workers.runner import run_worker

    settings = load_settings()
    if not settings.redis_url:
        raise click.ClickException("modhub worker needs MODHUB_REDIS_URL (RQ runs on Redis)")
    if settings.metrics_dir:  # the same folder as this host's `modhub serve`: its /metrics shows ours
        _metrics_dir(settings, clean=False)
    if not settings.embedded:
        from modhub.db import bound_waits

        bound_waits(
            connect_seconds=settings.db_connect_timeout_seconds,
            query_seconds=settings.db_statement_timeout_seconds + 1,
        )
    run_worker(settings, list(queues), worker_class=worker_class, burst=burst, log_level=log_level)


main.add_command(app)
main.add_command(webhook)
main.add_command(identity)
main.add_command(admin)
main.add_command(storage)
main.add_command(moderate)
main.add_command(downloads)
main.add_command(keys)
main.add_command(maintenance)
