"""Fixtures of the delivery tests: both storage backends (disk, and S3 on a loopback moto server)."""

from __future__ import annotations

import socket
import uuid

import pytest

from modhub.core.storage import DiskStorage, S3Storage, UrlSigner


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def moto_endpoint():
    """An S3-compatible server (moto) on a free loopback port for the whole run."""
    from moto.server import ThreadedMotoServer

    port = _free_port()
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    yield f"http://127.0.0.1:{port}"
    server.stop()


def s3_client(endpoint: str):
    """A boto3 client of the moto server with dummy credentials."""
    import boto3
    from botocore.config import Config

    return boto3.client(
        "s3",
        endpoint_url=endpoint,
        region_name="us-east-1",
        aws_access_key_id="test",
        aws_secret_access_key="test",
        config=Config(signature_version="s3v4", s3={"addressing_style": "path"}),
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
def cat(db):
    """The catalogue factories of the catalog tests."""
    from tests.functional.catalog.conftest import Catalogue

    return Catalogue(db)


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


def file_paths(post_id: int, file_id: int, suffix: str = "") -> list[str]:
    """A file path under both aliases: /mods/{p}/files/{f} and /resource/{p}/file/{f}."""
    return [
        f"/openapi/v2/mods/{post_id}/files/{file_id}{suffix}",
        f"/openapi/v2/resource/{post_id}/file/{file_id}{suffix}",
    ]
