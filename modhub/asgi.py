"""ASGI entry point for uvicorn: `uvicorn --factory modhub.asgi:create`."""

from modhub.core.startup import collector_paused


def create():
    """Build the app from the MODHUB_* environment (imports included: collector_paused)."""
    with collector_paused():
        return _build()


def _build():
    from sqlalchemy.orm import configure_mappers

    from modhub import logs
    from modhub.app import create_app
    from modhub.db import bound_waits
    from modhub.settings import from_env

    settings = from_env()
    logs.configure(settings.log_format, settings.log_level)  # the same format in every worker
    if not settings.embedded:
        bound_waits(
            connect_seconds=settings.db_connect_timeout_seconds,
            query_seconds=settings.db_statement_timeout_seconds + 1,
        )
    app = create_app(settings)
    if not settings.redis_url:  # embedded mode: webhooks are delivered by an in-process relay
        from workers.embedded import start

        start(app.app.extensions["modhub"])
    # The ORM mappers are configured by the first query otherwise: that request paid ~130 ms.
    configure_mappers()
    return app
