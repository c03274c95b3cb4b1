"""Lobby uploads through the full stack (a real uvicorn process, PostgreSQL, the disk storage):

- a file of --mb MiB uploaded (reserve, then the streamed multipart upload) against `sha256sum`
  of the same file in the same run: MB/s of each and the ratio;
- reserve-batch of 50 new items: p50/p95 latency over --batches calls;
- the server's peak RSS (VmHWM) before and after the upload.

    .venv/bin/python bench/lobby.py [--mb 200] [--batches 40] [--database-url URL]

The database named by --database-url (default postgresql+psycopg2://postgres@127.0.0.1:5432/
modhub_bench_lobby) is dropped and recreated.
"""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
from cryptography.fernet import Fernet

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from models.identity import applications  # noqa: E402
from models.identity.tokens import issue_token  # noqa: E402
from modhub.app import build_platform  # noqa: E402
from modhub.migrate import upgrade  # noqa: E402
from modhub.settings import Settings  # noqa: E402
from tests.support import Creds, recreate_database  # noqa: E402

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=int, default=200)
    parser.add_argument("--batches", type=int, default=40)
    parser.add_argument(
        "--database-url", default="postgresql+psycopg2://postgres@127.0.0.1:5432/modhub_bench_lobby"
    )
    args = parser.parse_args()
    size = args.mb * (1 << 20)
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        big = tmp / "big.bin"
        print(f"writing {args.mb} MiB of test data ...", flush=True)
        sha = random_file(big, size)
        t = time.perf_counter()
        out = subprocess.run(["sha256sum", str(big)], capture_output=True, text=True, check=True)
        base_s = time.perf_counter() - t
        assert out.stdout.split()[0] == sha
        with LiveServer(args.database_url, tmp / "data", max_upload_bytes=size + (1 << 20)) as srv:
            before = peak_rss_mb(srv.proc.pid)
            t = time.perf_counter()
            res = srv.reserve([reserve_item(sha, size)])[0]
            r = srv.upload_file(big, res["reservedResourceId"], res["uploadToken"])
            up_s = time.perf_counter() - t
            assert r.status_code == 200 and r.json()["data"]["sha256"] == sha, r.text
            after = peak_rss_mb(srv.proc.pid)
            print(f"sha256sum      : {args.mb / base_s:8.1f} MiB/s ({base_s:.2f} s)")
            print(f"upload (stack) : {args.mb / up_s:8.1f} MiB/s ({up_s:.2f} s)  ratio {base_s / up_s:.2f}")
            print(f"server peak RSS: {before:.0f} MiB before, {after:.0f} MiB after the upload")
            times = []
            with httpx.Client() as client:
                for b in range(args.batches):
                    items = [
                        reserve_item(hashlib.sha256(f"{b}-{i}".encode()).hexdigest(), 10 + i, f"f{i}.jar")
                        for i in range(50)
                    ]
                    t = time.perf_counter()
                    results = srv.reserve(items, client)
                    times.append((time.perf_counter() - t) * 1000)
                    assert all(x["status"] == "NEED_UPLOAD" for x in results)
            q = statistics.quantiles(times, n=20)
            print(
                f"reserve-batch(50) over {args.batches} calls: p50 {statistics.median(times):.1f} ms, "
                f"p95 {q[18]:.1f} ms"
            )


if __name__ == "__main__":
    main()
