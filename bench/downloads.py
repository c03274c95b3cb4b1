"""Downloads benchmark: streaming a 100 MB file through the whole stack against a bare Starlette
FileResponse of the same file, both under uvicorn on loopback in one run; then download-auth
and files/lookup (100 hashes) latency, server-side (Server-Timing).

    .venv/bin/python bench/downloads.py [--size-mb 100] [--rounds 5] [--requests 200]

The full stack is `uvicorn --factory modhub.asgi:create` over PostgreSQL and Redis with the disk
storage: a signed GET of download-file (signature, quota, spec validation, owner check, the
download count's Redis round trip, the storage read), and the same bytes through a download-auth
link (/dl/...). The baseline is bench/bare_download_app.py (one FileResponse, nothing else).
Each transfer is read to the end over a fresh connection and its bytes discarded; the figure is
the median of --rounds transfers. One uvicorn worker each.
"""

from __future__ import annotations

import argparse
import hashlib
import http.client
import io
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit

from cryptography.fernet import Fernet
from sqlalchemy import select

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.servers import start, stop, wait_serving  # noqa: E402
from models.catalog.queries import listed_clause  # noqa: E402
from models.catalog.tables import ResourceFile, ResourcePost  # noqa: E402
from models.identity import applications  # noqa: E402
from modhub.app import build_platform  # noqa: E402
from modhub.migrate import upgrade  # noqa: E402
from modhub.seed import seed_cli  # noqa: E402
from modhub.settings import Settings  # noqa: E402
from tests.support import Creds, recreate_database  # noqa: E402

DB_URL = os.environ.get(
    "MODHUB_BENCH_DOWNLOADS_URL", "postgresql+psycopg2://postgres@127.0.0.1:5432/modhub_bench_downloads"
)
REDIS_URL = os.environ.get("MODHUB_BENCH_REDIS_URL", "redis://127.0.0.1:6379/15")
DATA = Path("/tmp/modhub-bench-downloads")
PORT, BARE_PORT = 18191, 18192


def prepare(settings: Settings, size_mb: int):
    """A fresh database with a small seeded catalogue, plus one big file on a free resource."""
    recreate_database(settings.database_url)
    upgrade(settings.database_url)
    platform = build_platform(settings)
    seed_cli(platform, resources=200)
    rng = random.Random(11)
    blob = io.BytesIO(rng.randbytes(size_mb * 1024 * 1024))
    obj = platform.storage.put(blob)
    with platform.db.session() as s, s.begin():
        post = s.scalars(
            select(ResourcePost)
            .where(
                listed_clause(), ResourcePost.is_paid.is_(False), ResourcePost.download_permission == "PUBLIC"
            )
            .order_by(ResourcePost.id)
        ).first()
        big = ResourceFile(
            post_id=post.id,
            title="bench",
            file_name="bench.bin",
            storage_type="DIRECT_UPLOAD",
            object_key=obj.key,
            file_size=obj.size,
            sha1=obj.sha1,
            sha256=obj.sha256,
            sha512=obj.sha512,
            resource_versions=[],
            down_info=[],
        )
        s.add(big)
        s.flush()
        ids = (post.id, big.id)
        hashes = list(
            s.scalars(select(ResourceFile.sha256).where(ResourceFile.sha256.is_not(None)).limit(90))
        )
        creds = applications.create(
            s, platform.secrets, name="downloads bench", approve=True, per_minute=10**9, per_day=10**9
        )
    hashes += [hashlib.sha256(str(i).encode()).hexdigest() for i in range(100 - len(hashes))]
    path = platform.storage.path(obj.key)
    return Creds(creds.app_id, creds.api_key, creds.secret_key), ids, hashes, path, obj.sha256


def serve(module: str, port: int, env: dict, factory: bool) -> subprocess.Popen:
    """uvicorn (one worker) serving module on loopback, once it answers."""
    cmd = [
        sys.executable,
        "-m",
        "uvicorn",
        *(["--factory"] if factory else []),
        module,
        "--port",
        str(port),
        "--no-access-log",
        "--log-level",
        "warning",
    ]
    return wait_serving(port, start(cmd, env=env, name="downloads"))


def transfer(port: int, target: str, headers: dict, expect_sha: str | None = None) -> float:
    """Seconds to read the whole answer over a fresh connection (bytes discarded)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    started = time.perf_counter()
    conn.request("GET", target, headers=headers)
    response = conn.getresponse()
    assert response.status == 200, (response.status, response.read()[:300])
    digest = hashlib.sha256() if expect_sha else None
    while chunk := response.read(1 << 20):
        if digest:
            digest.update(chunk)
    elapsed = time.perf_counter() - started
    conn.close()
    if digest:
        assert digest.hexdigest() == expect_sha
    return elapsed


def latency(port: int, creds: Creds, path: str, body: dict, times: int) -> tuple[float, float]:
    """Server-side p50 and p95 (ms, Server-Timing) of a signed POST, one request at a time."""
    conn = http.client.HTTPConnection("127.0.0.1", port)
    server = []
    payload = json.dumps(body)
    for i in range(times + 5):
        conn.request(
            "POST",
            path,
            body=payload,
            headers=creds.headers("POST", path, **{"Content-Type": "application/json"}),
        )
        response = conn.getresponse()
        raw = response.read()
        assert response.status == 200 and json.loads(raw)["code"] == 0, raw[:300]
        if i >= 5:
            server.append(float(response.getheader("Server-Timing").partition("dur=")[2]))
    conn.close()
    server.sort()
    return statistics.median(server), server[min(len(server) - 1, int(len(server) * 0.95))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size-mb", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--requests", type=int, default=200)
    args = parser.parse_args()
    key = Fernet.generate_key().decode()
    settings = Settings(data_dir=DATA, database_url=DB_URL, redis_url=REDIS_URL, encryption_key=key)
    print(f"preparing: seeding and storing a {args.size_mb} MB file ...", flush=True)
    creds, (post_id, file_id), hashes, path, sha = prepare(settings, args.size_mb)
    env = {
        "MODHUB_DATABASE_URL": DB_URL,
        "MODHUB_REDIS_URL": REDIS_URL,
        "MODHUB_ENCRYPTION_KEY": key,
        "MODHUB_DATA_DIR": str(DATA),
        "MODHUB_BENCH_FILE": str(path),
    }
    full = serve("modhub.asgi:create", PORT, env, factory=True)
    bare = serve("bench.bare_download_app:app", BARE_PORT, env, factory=False)
    try:
        target = f"/openapi/v2/mods/{post_id}/files/{file_id}/download-file"
        auth = f"/openapi/v2/resource/{post_id}/download-auth"
        conn = http.client.HTTPConnection("127.0.0.1", PORT)
        conn.request(
            "POST",
            auth,
            body=json.dumps({"fileInfoId": file_id}),
            headers=creds.headers("POST", auth, **{"Content-Type": "application/json"}),
        )
        answer = json.loads(conn.getresponse().read())
        assert answer["code"] == 0, answer
        link = answer["data"]["downloadInfos"][0]["url"]
        conn.close()
        link = urlsplit(link)
        link_target = link.path + "?" + link.query
        transfer(PORT, target, creds.headers("GET", target), sha)  # warm, and check the bytes
        transfer(PORT, link_target, {}, sha)
        transfer(BARE_PORT, "/bench.bin", {}, sha)
        mb = args.size_mb
        rows = {
            "bare Starlette FileResponse": [],
            "modhub download-file (signed)": [],
            "modhub download-auth link (/dl)": [],
        }
        for _ in range(args.rounds):  # interleaved, so machine load hits all three alike
            rows["bare Starlette FileResponse"].append(transfer(BARE_PORT, "/bench.bin", {}))
            rows["modhub download-file (signed)"].append(transfer(PORT, target, creds.headers("GET", target)))
            rows["modhub download-auth link (/dl)"].append(transfer(PORT, link_target, {}))
        base = mb / statistics.median(rows["bare Starlette FileResponse"])
        print(f"\nstreaming {mb} MB over loopback, median of {args.rounds} (one uvicorn worker each)")
        for name, laps in rows.items():
            speed = mb / statistics.median(laps)
            print(f"  {name:34s} {speed:8.1f} MB/s   ratio to bare {speed / base:5.2f}")
        p50, p95 = latency(PORT, creds, auth, {"fileInfoId": file_id}, args.requests)
        print(
            f"\ndownload-auth           server-side p50 {p50:6.2f} ms  p95 {p95:6.2f} ms "
            f"({args.requests} requests)"
        )
        p50, p95 = latency(
            PORT, creds, "/openapi/v2/files/lookup", {"algorithm": "sha256", "hashes": hashes}, args.requests
        )
        print(
            f"files/lookup (100)      server-side p50 {p50:6.2f} ms  p95 {p95:6.2f} ms "
            f"({args.requests} requests, 100 hashes: 90 of stored files, 10 unknown)"
        )
    finally:
        stop(full)
        stop(bare)


if __name__ == "__main__":
    main()
