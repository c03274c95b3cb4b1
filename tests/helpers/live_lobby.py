"""A live server process for the lobby upload tests and the lobby benchmark (bench/lobby.py uses it):
PostgreSQL, optional S3, its own data folder; and the helpers to reserve and measure uploads."""

from __future__ import annotations

import datetime as dt
import hashlib
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
from cryptography.fernet import Fernet

from models.identity import applications
from models.identity.tokens import issue_token
from modhub.app import build_platform
from modhub.migrate import upgrade
from modhub.settings import Settings
from tests.support import Creds, recreate_database

ROOT = Path(__file__).resolve().parents[2]


LOBBY = "/openapi/v2/server-post/lobby"


def free_port() -> int:
    """A free loopback port."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def peak_rss_mb(pid: int) -> float:
    """The peak resident set size (VmHWM) of a process in MiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmHWM")


class LiveServer:
    """`uvicorn modhub.asgi:create` in its own process over a fresh database, with one approved
    application (quota raised) and one proxy user with a token."""

    def __init__(self, database_url: str, data_dir: Path, *, max_upload_bytes: int):
        self.database_url, self.data_dir = database_url, data_dir
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.env = {
            **os.environ,
            "MODHUB_DATABASE_URL": database_url,
            "MODHUB_DATA_DIR": str(data_dir),
            "MODHUB_REDIS_URL": "",
            "MODHUB_ENCRYPTION_KEY": Fernet.generate_key().decode(),
            "MODHUB_MAX_UPLOAD_BYTES": str(max_upload_bytes),
        }
        self.proc = None

    def __enter__(self) -> LiveServer:
        recreate_database(self.database_url)
        upgrade(self.database_url)
        settings = Settings(
            data_dir=self.data_dir,
            database_url=self.database_url,
            encryption_key=self.env["MODHUB_ENCRYPTION_KEY"],
        )
        platform = build_platform(settings)
        with platform.db.session() as session:
            c = applications.create(
                session,
                platform.secrets,
                name="lobby bench",
                permissions=["user:proxy"],
                approve=True,
                per_minute=1_000_000,
                per_day=10_000_000,
            )
            from models.catalog.tables import Section
            from models.identity.tables import User

            session.add(Section(code="minecraft", description="Minecraft"))
            user = User(username="lobby-bench")
            session.add(user)
            session.flush()
            self.token, _ = issue_token(
                session,
                app_id=c.app_id,
                user_id=user.id,
                scopes=[],
                source="bench",
                now=dt.datetime.now(dt.UTC),
            )
            self.user_id = user.id
            session.commit()
        platform.db.engine.dispose()
        self.creds = Creds(c.app_id, c.api_key, c.secret_key)
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "uvicorn",
                "--factory",
                "modhub.asgi:create",
                "--port",
                str(self.port),
                "--log-level",
                "warning",
            ],
            env=self.env,
            cwd=ROOT,
        )
        for _ in range(300):
            try:
                if httpx.get(self.base + "/openapi/v2/meta/openapi.json").status_code == 200:
                    return self
            except httpx.HTTPError:
                time.sleep(0.1)
        raise RuntimeError("the server did not start")

    def __exit__(self, *exc) -> None:
        self.proc.terminate()
        self.proc.wait(timeout=30)

    def headers(self, method: str, path: str, **extra) -> dict:
        """Signed proxy-user headers."""
        return self.creds.headers(
            method,
            path,
            **{"X-Proxy-User-Id": str(self.user_id), "X-Proxy-Access-Token": self.token, **extra},
        )

    def post(self, path: str, client: httpx.Client | None = None, **kwargs) -> httpx.Response:
        """A signed POST to a lobby path."""
        extra = kwargs.pop("headers", {})
        return (client or httpx).post(
            self.base + LOBBY + path,
            headers=self.headers("POST", LOBBY + path, **extra),
            timeout=600,
            **kwargs,
        )

    def reserve(self, items: list[dict], client: httpx.Client | None = None) -> list[dict]:
        """reserve-batch into the staging area."""
        r = self.post("/0/resources/reserve-batch", client, json={"items": items})
        assert r.status_code == 200, r.text
        return r.json()["data"]["results"]

    def upload_file(self, path: Path, resource_id: int, token: str) -> httpx.Response:
        """The streamed multipart upload of a file on disk (httpx reads it in chunks)."""
        with path.open("rb") as fh:
            return self.post(
                f"/0/resources/{resource_id}/upload",
                headers={"X-Upload-Token": token},
                files={"file": (path.name, fh, "application/octet-stream")},
            )


def random_file(path: Path, size: int) -> str:
    """Write size random bytes; returns their sha256."""
    digest, chunk = hashlib.sha256(), os.urandom(1 << 20)
    with path.open("wb") as fh:
        left = size
        while left > 0:
            part = chunk[: min(left, len(chunk))]
            chunk = hashlib.sha512(chunk[:64]).digest() + chunk[64:]  # vary the content cheaply
            fh.write(part)
            digest.update(part)
            left -= len(part)
    return digest.hexdigest()


def reserve_item(sha: str, size: int, name: str = "big.bin") -> dict:
    """A reserve item."""
    return {
        "sha256": sha,
        "sizeBytes": size,
        "name": name,
        "clientInstallPath": f"mods/{name}",
        "resourceType": "mod",
    }
