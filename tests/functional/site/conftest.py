"""Fixtures of the site browser tests: a live server over a scratch database and Chromium."""

from __future__ import annotations

import pytest

from tests.functional.identity.live import live_app, scratch_database, serve
from tests.functional.site.browser import artifact_dir, start_browser


@pytest.fixture()
def browser(tmp_path):
    """Headless Chromium with a fresh profile."""
    driver = start_browser(tmp_path / "profile")
    yield driver
    driver.quit()


@pytest.fixture()
def shots(tmp_path):
    """The folder the screenshots of this test are saved in."""
    return artifact_dir(tmp_path)


@pytest.fixture()
def site(settings, quota):
    """A live server over a committed scratch database: (base URL, platform)."""
    with scratch_database("site") as url:
        app = live_app(settings.replace(site_url="http://127.0.0.1"), url, quota=quota)
        platform = app.app.extensions["modhub"]
        with serve(app) as base:
            yield base, platform
        platform.db.engine.dispose()
