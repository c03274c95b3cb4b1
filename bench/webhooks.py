"""Webhook delivery: N events committed one per transaction, delivered by 2 `modhub worker`
processes to a local receiver that verifies every signature.

Prints deliveries/s and p50/p95/p99 latency from commit to receipt, against a baseline measured in
the same run: the same 2 processes POSTing the same signed bodies straight to the receiver (no
outbox, no RQ, no database). Runs on a private redis-server and a dedicated PostgreSQL database.

    .venv/bin/python bench/webhooks.py [--events 10000] [--rate 600] [--worker-class simple|fork]

--rate is the open-loop commit rate (events/s; 0 = as fast as the committing threads can go).
Unpaced, the delivery rate cannot exceed the producer's commit rate (the bench prints that bound).
--backlog measures the delivery side alone: the events are committed before the workers start,
then the workers drain the outbox; deliveries/s counts from the first receipt to the last.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from cryptography.fernet import Fernet

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.webhook_receiver import SECRET_ENV  # noqa: E402
from models.identity import applications  # noqa: E402
from models.webhooks import service as webhooks  # noqa: E402
from models.webhooks.events import emit  # noqa: E402
from modhub.app import build_platform  # noqa: E402
from modhub.migrate import upgrade  # noqa: E402
from modhub.settings import from_env  # noqa: E402
from tests.functional.webhooks.processes import RedisServer, free_port  # noqa: E402
from tests.support import recreate_database  # noqa: E402

DB_URL = os.environ.get(
    "MODHUB_BENCH_DATABASE_URL", "postgresql+psycopg2://postgres@127.0.0.1:5432/modhub_bench_webhooks"
)


def start_receiver(port: int, secret: str) -> subprocess.Popen:
    """The receiver (uvicorn, raw ASGI) in its own process; returns once it answers."""
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "uvicorn",
            "bench.webhook_receiver:app",
            "--port",
            str(port),
            "--log-level",
            "warning",
            "--no-access-log",
        ],
        cwd=ROOT,
        env={**os.environ, SECRET_ENV: secret},
    )
    for _ in range(100):
        try:
            return proc if stats(port) is not None else proc
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("receiver did not start")


def stats(port: int) -> dict:
    """The receiver's record: {event id: first receipt time}, count, bad signatures."""
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/stats", timeout=30) as r:
        return json.loads(r.read())


def reset(port: int) -> None:
    """Forget what the receiver recorded."""
    urllib.request.urlopen(
        urllib.request.Request(f"http://127.0.0.1:{port}/reset", method="POST"), timeout=10
    ).read()


def prepare(env: dict, url: str) -> tuple[object, str]:
    """A fresh database with one approved application subscribed to the receiver."""
    recreate_database(DB_URL)
    upgrade(DB_URL)
    os.environ.update(env)
    platform = build_platform(from_env())
    with platform.db.session() as s, s.begin():
        creds = applications.create(s, platform.secrets, name="bench", approve=True)
        _, secret = webhooks.create(s, platform.secrets, app_id=creds.app_id, url=url, allow_private=True)
    return platform, secret


def commit_events(platform, n: int, rate: float, threads: int) -> dict[str, float]:
    """Commit n events, one per transaction, from several threads (as several API processes
    would) at an open-loop total rate; returns commit times by event id."""
    committed: dict[str, float] = {}
    start = time.perf_counter()

    def produce(k: int) -> None:
        for i in range(k, n, threads):
            if rate:
                pause = start + i / rate - time.perf_counter()
                if pause > 0:
                    time.sleep(pause)  # pacing the producer: this is the load generator
            with platform.db.session() as s, s.begin():
                row = emit(
                    s,
                    kind="resource.updated",
                    data={"postId": i, "title": f"Resource {i}", "mainName": f"Resource {i}"},
                )
            committed[row.event_id] = time.time()

    with ThreadPoolExecutor(threads) as pool:
        list(pool.map(produce, range(threads)))
    return committed


def wait_all(port: int, n: int, timeout: float) -> dict:
    """Poll the receiver until it has n distinct events (bounded)."""
    deadline = time.monotonic() + timeout
    while True:
        got = stats(port)
        if len(got["first"]) >= n or time.monotonic() > deadline:
            return got
        time.sleep(0.5)


def report(name: str, committed: dict[str, float], got: dict) -> float:
    """Print throughput and commit-to-receipt latency; return deliveries/s."""
    first = got["first"]
    lat = sorted((first[e] - t) * 1000 for e, t in committed.items() if e in first)
    span = max(first.values()) - min(committed.values())
    rate = len(lat) / span
    q = statistics.quantiles(lat, n=100)
    print(
        f"{name:38s} {len(lat):6d}/{len(committed)} delivered  {rate:7.0f} deliveries/s  "
        f"p50 {q[49]:7.1f} ms  p95 {q[94]:7.1f} ms  p99 {q[98]:7.1f} ms  "
        f"requests {got['count']}  bad signatures {got['bad']}"
    )
    return rate


def baseline(port: int, secret: str, n: int) -> float:
    """2 processes POSTing n signed bodies straight to the receiver: the upper bound."""
    reset(port)
    code = (
        "import sys, time, uuid, httpx\n"
        "from modhub.core.webhook_signing import encode_body, sign\n"
        "port, secret, n = sys.argv[1], sys.argv[2], int(sys.argv[3])\n"
        "with httpx.Client() as c:\n"
        "    started = time.perf_counter()\n"
        "    for i in range(n):\n"
        "        body = encode_body('resource.updated', {'postId': i, 'title': 'R'})\n"
        "        ts = str(int(time.time() * 1000))\n"
        "        c.post(f'http://127.0.0.1:{port}/hook', content=body, headers={\n"
        "            'Content-Type': 'application/json', 'X-Webhook-Event': 'resource.updated',\n"
        "            'X-Webhook-Id': str(uuid.uuid4()), 'X-Webhook-Timestamp': ts,\n"
        "            'X-Webhook-Signature': sign(secret, ts, body)})\n"
        "    print(time.perf_counter() - started)\n"
    )
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", code, str(port), secret, str(n // 2)],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    took = max(float(p.communicate()[0]) for p in procs)
    rate = (n // 2 * 2) / took
    got = stats(port)
    print(
        f"{'baseline: 2 processes POSTing directly':38s} {rate:7.0f} deliveries/s  "
        f"requests {got['count']}  bad signatures {got['bad']}"
    )
    return rate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=10_000)
    parser.add_argument("--rate", type=float, default=600)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--worker-class", choices=["simple", "fork"], default="simple")
    parser.add_argument("--batch-size", type=int, default=50)
    parser.add_argument("--producers", type=int, default=8, help="committing threads")
    parser.add_argument(
        "--backlog",
        action="store_true",
        help="commit every event first, then start the workers (the drain rate)",
    )
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="modhub-bench-webhooks-"))
    redis_server = RedisServer(tmp).start()
    port = free_port()
    env = {
        "MODHUB_DATABASE_URL": DB_URL,
        "MODHUB_REDIS_URL": redis_server.url,
        "MODHUB_ENCRYPTION_KEY": Fernet.generate_key().decode(),
        "MODHUB_DATA_DIR": str(tmp),
        "MODHUB_WEBHOOK_ALLOW_PRIVATE": "1",
        "MODHUB_WEBHOOK_QUEUE": "webhooks-bench",
        "MODHUB_WEBHOOK_BATCH_SIZE": str(args.batch_size),
    }
    platform, secret = prepare(env, f"http://127.0.0.1:{port}/hook")
    receiver = start_receiver(port, secret)

    def start_workers() -> list[subprocess.Popen]:
        return [
            subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "modhub.cli",
                    "worker",
                    "--queue",
                    "webhooks-bench",
                    "--worker-class",
                    args.worker_class,
                    "--log-level",
                    "WARNING",
                ],
                cwd=ROOT,
                env={**os.environ, **env},
            )
            for _ in range(args.workers)
        ]

    workers = [] if args.backlog else start_workers()
    try:
        time.sleep(0 if args.backlog else 2)  # let the workers import and register first
        print(
            f"{args.events} events, commit rate {args.rate or 'max'}/s, {args.workers} workers "
            f"({args.worker_class}), batch {args.batch_size}"
            + (", committed before the workers start (drain)" if args.backlog else "")
        )
        committed = commit_events(platform, args.events, args.rate, args.producers)
        took = max(committed.values()) - min(committed.values())
        print(f"{'producer':38s} {len(committed) / took:7.0f} commits/s")
        if args.backlog:
            workers = start_workers()
        got = wait_all(port, len(committed), timeout=max(120, args.events / 50))
        rate = report(f"outbox -> RQ ({args.worker_class}) -> receiver", committed, got)
        if args.backlog:
            receipts = sorted(got["first"].values())
            rate = (len(receipts) - 1) / (receipts[-1] - receipts[0])
            print(f"{'drain (first to last receipt)':38s} {rate:7.0f} deliveries/s")
        base = baseline(port, secret, args.events)
        bound = (
            ""
            if args.backlog
            else (f"  (the producer's bound: {len(committed) / took / base:.2f} = commits/s / direct POST)")
        )
        print(f"ratio outbox delivery / direct POST: {rate / base:.2f}{bound}")
    finally:
        for w in workers:
            w.terminate()
        for w in workers:
            w.wait(20)
        receiver.terminate()
        receiver.wait(10)
        redis_server.stop()
        platform.db.engine.dispose()


if __name__ == "__main__":
    main()
