"""The run's apps, built once per distinct settings, and the heap freeze that keeps what lasts
out of the collector's full passes."""

from __future__ import annotations

import os
from pathlib import Path

from connexion.middleware import MiddlewarePosition

from modhub.app import create_app
from modhub.contract import Contract
from modhub.core.startup import freeze_survivors
from modhub.settings import Settings
from tests.support import (
    ExampleRecorder,
)


class AppPool:
    """Apps built once per run, one per distinct build-time settings (building one resolves
    and validates the whole contract: about half a second)."""

    def __init__(self, contract: Contract):
        self.contract = contract
        self.apps: dict[str, object] = {}

    def get(self, settings: Settings, db, quota):
        """The app built for settings like these (per-test fields aside)."""
        key = repr(settings.replace(data_dir=Path("."), webhook_queue=""))
        if key not in self.apps:
            app = create_app(settings, db=db, quota=quota, contract=self.contract)
            if os.environ.get("MODHUB_RECORD_EXAMPLES"):  # material for openapi/write_examples.py
                app.add_middleware(
                    ExampleRecorder,
                    position=MiddlewarePosition.BEFORE_EXCEPTION,
                    folder=os.environ["MODHUB_RECORD_EXAMPLES"],
                )
            self.apps[key] = app
            freeze_survivors()  # an app lasts the run: out of the collector's passes
        return self.apps[key]
