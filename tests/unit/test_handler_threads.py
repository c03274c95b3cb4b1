"""MODHUB_HANDLER_THREADS sizes each server process's pool of handler threads (default 4)."""

from __future__ import annotations

import pytest

from modhub.app import create_app
from modhub.settings import SettingsError, from_env


def test_the_setting_is_read_from_the_environment_and_checked(monkeypatch, tmp_path):
    monkeypatch.setenv("MODHUB_DATA_DIR", str(tmp_path))
    assert from_env().handler_threads == 4
    monkeypatch.setenv("MODHUB_HANDLER_THREADS", "12")
    assert from_env().handler_threads == 12
    for wrong in ("0", "four"):
        monkeypatch.setenv("MODHUB_HANDLER_THREADS", wrong)
        with pytest.raises(SettingsError, match="MODHUB_HANDLER_THREADS"):
            from_env()


def test_the_app_runs_its_handlers_on_that_many_threads(embedded_settings):
    app = create_app(embedded_settings.replace(handler_threads=2))
    platform = app.app.extensions["modhub"]
    assert platform.handlers._max_workers == 2
    platform.handlers.submit(lambda: None).result()  # the pool answers; its threads are named
    seen = [t.name for t in platform.handlers._threads]
    assert seen and all(name.startswith("modhub-handler") for name in seen)
    platform.db.engine.dispose()
