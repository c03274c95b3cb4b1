"""ASGI entry point for uvicorn: `uvicorn --factory modhub.asgi:create`."""

from modhub.app import create_app
from modhub.settings import from_env


def create():
    """Build the app from the MODHUB_* environment."""
    return create_app(from_env())
