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
