"""MODHUB_SPOOL_DIR: uploads are spooled in the configured folder, and the storage sweep removes
what a killed upload left there (issue 30, item 5)."""

import datetime as dt
import io
import os
import time

from models.lobby.sweep import sweep
from modhub.core.storage import from_settings


def test_uploads_spool_in_the_configured_folder_and_the_sweep_covers_it(settings, db, tmp_path):
    spool = tmp_path / "spool-elsewhere"
    storage = from_settings(settings.replace(spool_dir=spool))
    assert storage.spool_dir == spool
    obj = storage.put(io.BytesIO(b"x" * 1000))
    assert b"".join(storage.open(obj.key)) == b"x" * 1000
    assert list(spool.glob("upload-*")) == []  # moved to its content address
    stale, fresh = spool / "upload-killed", spool / "upload-running"
    stale.write_bytes(b"left over")
    fresh.write_bytes(b"still uploading")
    old = time.time() - 3 * 86400
    os.utime(stale, (old, old))
    result = sweep(db, storage, grace=dt.timedelta(minutes=60))
    assert result.spool_files == 1 and not stale.exists() and fresh.exists()


def test_s3_storage_spools_under_the_data_folder_by_default(settings):
    storage = from_settings(
        settings.replace(storage_url="s3://bucket", s3_endpoint_url="http://127.0.0.1:18499")
    )
    assert storage.spool_dir == settings.data_dir / "spool" and storage.spool_dir.is_dir()
