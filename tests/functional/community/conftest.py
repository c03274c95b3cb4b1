"""Fixtures of the community tests: factories writing rows in the test's rolled-back transaction."""

from __future__ import annotations

import pytest

from tests.helpers.community import (
    Community,
)


@pytest.fixture()
def com(db) -> Community:
    """The community factories."""
    return Community(db)


@pytest.fixture()
def settings(settings):
    """The test settings with a CDN base, so display URLs are visible in answers."""
    return settings.replace(cdn_base_url="https://cdn.example")
