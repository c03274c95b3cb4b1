"""ASGI entry point for uvicorn: `uvicorn --factory modhub.asgi:create`."""

import gc

from sqlalchemy.orm import configure_mappers

from modhub import logs
from modhub.app import create_app
from modhub.db import bound_waits
from modhub.settings import from_env


def create():
    """Build the app from the MODHUB_* environment."""
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
    # What start-up built (the parsed contract, the validators, the mappers: ~150,000 objects)
    # lives as long as the process: keep it out of the collector's full passes, which otherwise
    # walk all of it (measured 30-80 ms each, a request's worth of stall at the tail).
    gc.collect()
    gc.freeze()
    return app
