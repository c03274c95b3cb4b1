"""An S3 outage (the moto server stopped) is 503 / 200503 for an upload and a failing `storage`
check in /readyz, both within the S3 time-outs: never a 500 (issue 30, item 6)."""

from __future__ import annotations

import os
import time
import uuid

from moto.server import ThreadedMotoServer

from modhub.core.storage import from_settings
from tests.helpers.catalog import data, error_code
from tests.helpers.lobby import item

PORT = 18450  # this test's own moto server (it is stopped mid-test)


def test_s3_down_is_503_for_uploads_and_names_storage_in_readyz(owner, client, platform, settings):
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=PORT, verbose=False)
    server.start()
    bucket = f"outage-{uuid.uuid4().hex[:8]}"
    storage = from_settings(
        settings.replace(
            storage_url=f"s3://{bucket}/objects",
            s3_endpoint_url=f"http://127.0.0.1:{PORT}",
            s3_region="us-east-1",
            s3_access_key_id="test",
            s3_secret_access_key="test",
            s3_connect_timeout_seconds=1,
            s3_read_timeout_seconds=1,
            s3_max_attempts=1,
        )
    )
    storage.client.create_bucket(Bucket=bucket)
    saved, platform.storage = platform.storage, storage
    stopped = False
    try:
        content = os.urandom(5000)
        r = data(owner.reserve(0, [item(content)]))["results"][0]
        assert client.get("/readyz").json()["checks"]["storage"] == "ok"
        server.stop()
        stopped = True
        started = time.monotonic()
        answer = owner.upload(0, r["reservedResourceId"], r["uploadToken"], content)
        assert error_code(answer, 503) == 200503 and time.monotonic() - started < 5
        ready = client.get("/readyz")
        assert ready.status_code == 503 and ready.json()["failing"] == ["storage"]
    finally:
        platform.storage = saved
        if not stopped:
            server.stop()
