"""Fixtures of the lobby tests: a proxy user with a token, both storage backends, HTTP helpers."""

from __future__ import annotations

import uuid

import pytest

from modhub.core.storage import S3Storage
from tests.helpers.files import s3_client
from tests.helpers.lobby import (
    Lobby,
)


@pytest.fixture(params=["disk", "s3"])
def backend(request, platform, tmp_path):
    """The app's storage: the disk folder, then an S3 bucket on the moto server."""
    if request.param == "disk":
        yield platform.storage
        return
    client = s3_client(request.getfixturevalue("moto_endpoint"))
    bucket = f"lobby-{uuid.uuid4().hex[:12]}"
    client.create_bucket(Bucket=bucket)
    saved = platform.storage
    platform.storage = S3Storage(bucket, client=client, prefix="objects", spool_dir=tmp_path)
    try:
        yield platform.storage
    finally:
        platform.storage = saved


@pytest.fixture()
def sections(db):
    """The section and run platform the lobby posts name."""
    from tests.helpers.catalog import Catalogue

    cat = Catalogue(db)
    cat.section("minecraft")
    cat.platform("forge")


@pytest.fixture()
def owner(signed, creds, make_user, make_token, sections):
    """The publishing proxy user."""
    user = make_user()
    return Lobby(signed, user, make_token(creds.app_id, user))


@pytest.fixture()
def stranger(signed, creds, make_user, make_token):
    """Another proxy user of the same application."""
    user = make_user()
    return Lobby(signed, user, make_token(creds.app_id, user))
