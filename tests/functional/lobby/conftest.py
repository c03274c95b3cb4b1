"""Fixtures of the lobby tests: a proxy user with a token, both storage backends, HTTP helpers."""

from __future__ import annotations

import hashlib
import uuid

import httpx
import pytest

from modhub.core.storage import S3Storage
from tests.functional.files.conftest import moto_endpoint, s3_client  # noqa: F401  (fixture)

BASE = "/openapi/v2/server-post/lobby"


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


class Lobby:
    """A proxy user's calls to the lobby operations."""

    def __init__(self, signed, user_id: int, token: str):
        self.signed, self.user_id = signed, user_id
        self.headers = {"X-Proxy-User-Id": str(user_id), "X-Proxy-Access-Token": token}

    def post(self, path: str, **kwargs):
        return self.signed.post(BASE + path, headers={**self.headers, **kwargs.pop("headers", {})}, **kwargs)

    def reserve(self, post_id: int, items: list[dict]):
        return self.post(f"/{post_id}/resources/reserve-batch", json={"items": items})

    def upload(self, post_id: int, resource_id: int, token: str, content: bytes, **headers):
        return self.post(
            f"/{post_id}/resources/{resource_id}/upload",
            headers={"X-Upload-Token": token, **headers},
            files={"file": ("f.bin", content, "application/octet-stream")},
        )

    def publish(self, body: dict):
        return self.post("/publish", json=body)


@pytest.fixture()
def sections(db):
    """The section and run platform the lobby posts name."""
    from tests.functional.catalog.conftest import Catalogue

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


def item(content: bytes, path: str = "mods/a.jar", **fields) -> dict:
    """A reserve item for these bytes."""
    return {
        "sha256": hashlib.sha256(content).hexdigest(),
        "sizeBytes": len(content),
        "name": path.rsplit("/", 1)[-1],
        "clientInstallPath": path,
        "resourceType": "mod",
        **fields,
    }


def post_body(**fields) -> dict:
    """A publish body."""
    return {
        "postTitle": "生存服 Survival",
        "mainName": "Survival",
        "sectionCode": "minecraft",
        "serverIp": "play.example.org",
        "serverPort": 25565,
        "serverPassword": "pw",
        "serverVersion": ["1.20.1", "1.20.2"],
        "queryType": "MINECRAFT",
        "maxPlayers": 20,
        "resources": [],
        **fields,
    }


def fetch(client, url: str) -> bytes:
    """GET a download URL: app-relative (disk backend) through the app, absolute (S3) directly."""
    if url.startswith("/"):
        r = client.get(url)
    else:
        r = httpx.get(url)
    assert r.status_code == 200, (url, r.status_code, r.text[:200])
    return r.content
