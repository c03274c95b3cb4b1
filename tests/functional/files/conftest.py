"""Fixtures of the delivery tests: both storage backends (disk, and S3 on a loopback moto server)."""

from __future__ import annotations

import uuid

import pytest

from modhub.core.storage import DiskStorage, S3Storage, UrlSigner
from tests.helpers.files import (
    s3_client,
)


@pytest.fixture(params=["disk", "s3"])
def storage(request, tmp_path):
    """Each storage backend in turn: the content-addressed folder and an S3 bucket."""
    if request.param == "disk":
        return DiskStorage(tmp_path / "files", signer=UrlSigner(b"k" * 32))
    client = s3_client(request.getfixturevalue("moto_endpoint"))
    bucket = f"modhub-{uuid.uuid4().hex[:12]}"
    client.create_bucket(Bucket=bucket)
    return S3Storage(bucket, client=client, prefix="objects", spool_dir=tmp_path)


@pytest.fixture()
def stored(cat, platform):
    """Stores bytes in the app's storage and records them as a DIRECT_UPLOAD file of a post."""
    import io

    from models.catalog.tables import ResourceFile

    def make(post_id: int, content: bytes, **fields) -> int:
        obj = platform.storage.put(io.BytesIO(content))
        return cat.add(
            ResourceFile,
            **{
                "post_id": post_id,
                "title": "主文件 main",
                "file_name": "模组-1.0.jar",
                "run_platform": "forge",
                "resource_versions": ["1.20.1"],
                "storage_type": "DIRECT_UPLOAD",
                "object_key": obj.key,
                "file_size": obj.size,
                "sha1": obj.sha1,
                "sha256": obj.sha256,
                "sha512": obj.sha512,
                **fields,
            },
        )

    return make
