"""ASGI entry point for uvicorn: `uvicorn --factory modhub.asgi:create`."""

from modhub.app import create_app
from modhub.settings import from_env


def create():
    """Build the app from the MODHUB_* environment."""
    settings = from_env()
    app = create_app(settings)
    if not settings.redis_url:  # embedded mode: webhooks are delivered by an in-process relay
        from workers.embedded import start
        start(app.app.extensions["modhub"])
    return app
