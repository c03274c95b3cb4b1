"""Fixtures of the catalogue read tests: small factories writing rows in the test transaction."""

from __future__ import annotations

import pytest

from tests.helpers.catalog import (
    NOW,
)


@pytest.fixture()
def clock(platform):
    """The app's clock, frozen at NOW."""
    platform.clock = lambda: NOW
    return NOW


@pytest.fixture()
def settings(settings):
    """The test settings with a CDN base, so display URLs are visible in answers."""
    return settings.replace(cdn_base_url="https://cdn.example")
