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
import hashlib
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.helpers.live_lobby import (  # noqa: E402
    LiveServer,
    peak_rss_mb,
    random_file,
    reserve_item,
)


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
