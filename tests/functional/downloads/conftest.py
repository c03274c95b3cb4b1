"""Fixtures of the delivery tests: the app's storage on each backend, posts, stored files."""

from __future__ import annotations

import uuid

import pytest

from tests.helpers.files import s3_client


@pytest.fixture(params=["disk", "s3"])
def backend(request, platform, tmp_path):
    """The app's storage: its disk folder, or an S3 bucket on the loopback moto server."""
    if request.param == "disk":
        yield "disk"
        return
    from modhub.core.storage import S3Storage

    client = s3_client(request.getfixturevalue("moto_endpoint"))
    bucket = f"modhub-{uuid.uuid4().hex[:12]}"
    client.create_bucket(Bucket=bucket)
    saved = platform.storage
    platform.storage = S3Storage(bucket, client=client, prefix="objects", spool_dir=tmp_path)
    try:
        yield "s3"
    finally:
        platform.storage = saved


@pytest.fixture()
def post(cat):
    """A listed free resource post on the forge platform."""
    cat.section()
    cat.platform()
    return cat.post()


@pytest.fixture()
def stored(cat, platform):
    """Stores bytes in the app's current storage and records them as a DIRECT_UPLOAD file."""

    def make(post_id: int, content: bytes, **fields) -> int:
        fields = {"title": "main", "file_name": "mod-1.0.jar", **fields}
        return cat.stored_file(platform.storage, post_id, content, **fields)

    return make
