"""Fixtures of the webhook tests: a real loopback receiver, a movable clock, and a delivery runtime
over the rolled-back test database whose hand-overs to RQ are recorded instead of sent."""

from __future__ import annotations

import os
import uuid

import pytest

from tests.functional.webhooks.processes import RedisServer
from tests.helpers.env import RUN_PG_URL
from tests.helpers.webhooks import (
    Stack,
)
from tests.support import drop_database, migrated_database


@pytest.fixture()
def stack(tmp_path, settings):
    """Committed data across processes: its own migrated database and its own redis-server."""
    db_url = settings.database_url.rsplit("/", 1)[0] + f"/modhub_test_webhooks_e2e_{uuid.uuid4().hex[:8]}"
    migrated_database(db_url, RUN_PG_URL)
    server = RedisServer(tmp_path).start()
    wh = settings.replace(
        database_url=db_url,
        redis_url=server.url,
        webhook_allow_private=True,
        webhook_queue=f"webhooks-test-{uuid.uuid4().hex[:8]}",
        webhook_timeout_seconds=2.0,
        webhook_lease_seconds=3.0,
        webhook_sweep_seconds=0.5,
    )
    env = {
        **os.environ,
        "MODHUB_DATABASE_URL": db_url,
        "MODHUB_REDIS_URL": server.url,
        "MODHUB_ENCRYPTION_KEY": wh.encryption_key,
        "MODHUB_DATA_DIR": str(tmp_path),
        "MODHUB_WEBHOOK_ALLOW_PRIVATE": "1",
        "MODHUB_WEBHOOK_QUEUE": wh.webhook_queue,
        "MODHUB_WEBHOOK_TIMEOUT_SECONDS": "2",
        "MODHUB_WEBHOOK_LEASE_SECONDS": "3",
        "MODHUB_WEBHOOK_SWEEP_SECONDS": "0.5",
        "MODHUB_PRODUCTION": "0",
    }
    s = Stack(db_url, server, wh, env, tmp_path)
    yield s
    for worker in s.workers:
        worker.stop()
    server.stop()
    drop_database(db_url)
