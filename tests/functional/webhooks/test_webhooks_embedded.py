"""The embedded mode (SQLite, no Redis): the in-process relay delivers from the same outbox."""

from __future__ import annotations

import pytest

from models.identity.tables import Application
from models.webhooks import service as webhooks
from models.webhooks.events import emit
from modhub.app import build_platform
from modhub.migrate import upgrade
from modhub.settings import Settings, finalize
from tests.functional.webhooks.receiver import Reply
from workers import embedded

pytestmark = [pytest.mark.sqlite, pytest.mark.slow]


def test_in_process_relay_delivers_and_retries(tmp_path, receiver, clock):
    settings = finalize(
        Settings(
            data_dir=tmp_path,
            database_url=f"sqlite:///{tmp_path}/m.db",
            webhook_allow_private=True,
            webhook_timeout_seconds=2,
            webhook_lease_seconds=4,
            webhook_sweep_seconds=0.2,
        )
    )
    upgrade(settings.database_url)
    platform = build_platform(settings)
    platform.clock = clock
    relay = embedded.start(platform)
    try:
        with platform.db.session() as s, s.begin():
            app = Application(name="embedded", api_key="k" * 32, secret_encrypted="x", status="APPROVED")
            s.add(app)
            s.flush()
            _, secret = webhooks.create(
                s, platform.secrets, app_id=app.id, url=receiver.url, allow_private=True
            )
        receiver.replies = [Reply(503, headers={"Retry-After": "0"})]
        with platform.db.session() as s, s.begin():
            event_id = emit(s, kind="resource.published", data={"postId": 1, "title": "T"}).event_id
        receiver.wait_for(1)
        clock.advance(seconds=6)  # the first retry is due 5 s (+-10 %) later
        first, second = receiver.wait_for(2)
        assert first.headers["x-webhook-id"] == second.headers["x-webhook-id"] == event_id
        assert second.signed_by(secret)
    finally:
        relay.stop()
        platform.db.engine.dispose()
