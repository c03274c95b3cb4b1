"""Helpers of the lobby tests (imported by their conftest and by any test that needs them)."""

from __future__ import annotations

import hashlib

import httpx

BASE = "/openapi/v2/server-post/lobby"


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
