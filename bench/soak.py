"""Soak: a mixed load at a fixed rate for a long time on PostgreSQL and Redis, with two API
processes and a webhook worker, watching what drifts (issue 31 item 4).

    .venv/bin/python bench/soak.py --rate 200 --minutes 1 --window 30     # capacity: the rate it kept
    .venv/bin/python bench/soak.py --rate 82 --minutes 60 --window 600    # before a release
    .venv/bin/python bench/soak.py --rate 20 --minutes 3 --window 60      # a smoke run

The release run is --minutes 60 at half the capacity (the achieved rate of a minute offered more
than the servers keep up with: its sends fall behind), on a quiet machine. The load is open-loop
(request i is sent at start + i/rate, late or not) and mixed:
reads (a resource, its files, its comments, the games), keyword searches, writes through proxy
tokens (comments, likes, point adjustments with an Idempotency-Key), lobby uploads (reserve,
then upload fresh bytes), and webhook events committed to the outbox at their share of the rate
(the way a moderator's approval commits them: the API has no operation that emits one), which the
worker relays to a local receiver that checks every signature. Requests alternate between the two
API processes.

It prints, per window: requests, 5xx, p50 and p99 per kind; the RSS of each process (two API
processes, the worker) at the start of the load and at its end; webhook deliveries against
events committed; and the rows the writes must have made against the successes counted. It exits
1 on any 5xx, a p99 of the last window more than 20% above the first's, an RSS growth of 10% or
more, a webhook not delivered, or a row count that differs.

It uses a database of its own (MODHUB_SOAK_DATABASE_URL, recreated), a private redis-server, and
ports --port .. --port+4 on loopback.
"""

from __future__ import annotations

import argparse
import collections
import hashlib
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import requests
from cryptography.fernet import Fernet
from sqlalchemy import func, select, text

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.servers import start, stop, wait_serving  # noqa: E402
from bench.webhooks import start_receiver, stats  # noqa: E402
from models.catalog.queries import listed_clause  # noqa: E402
from models.catalog.tables import ResourcePost  # noqa: E402
from models.identity import applications  # noqa: E402
from models.identity.tables import User  # noqa: E402
from models.webhooks import service as webhooks  # noqa: E402
from models.webhooks.events import emit  # noqa: E402
from modhub.app import build_platform  # noqa: E402
from modhub.migrate import upgrade  # noqa: E402
from modhub.seed import seed_cli  # noqa: E402
from modhub.settings import Settings, from_env  # noqa: E402
from tests.functional.webhooks.processes import RedisServer  # noqa: E402
from tests.helpers.identity import add_proxy_token  # noqa: E402
from tests.signing import Creds  # noqa: E402
from tests.support import recreate_database  # noqa: E402

DB_URL = os.environ.get(
    "MODHUB_SOAK_DATABASE_URL", "postgresql+psycopg2://postgres@127.0.0.1:5432/modhub_soak"
)
# kind -> share of the requests
MIX = {"read": 0.50, "search": 0.20, "write": 0.18, "upload": 0.04, "webhook": 0.08}
V2 = "/openapi/v2"


class World:
    """What the load acts on: credentials, users with tokens, post ids, the subscription secret."""

    def __init__(self, creds: Creds, users: list[tuple[int, str]], posts: list[int], secret: str):
        self.creds, self.users, self.posts, self.secret = creds, users, posts, secret


def prepare(env: dict, hook_url: str, resources: int, users: int) -> tuple[object, World]:
    """A fresh database: the demo catalogue, an unlimited application, users with tokens, and a
    webhook subscription to the receiver."""
    recreate_database(DB_URL)
    upgrade(DB_URL)
    os.environ.update(env)
    platform = build_platform(from_env())
    seed_cli(platform, resources=resources)
    with platform.db.session() as s, s.begin():
        made = applications.create(
            s,
            platform.secrets,
            name="soak",
            permissions=["user:proxy"],
            approve=True,
            per_minute=10**9,
            per_day=10**9,
        )
        _, secret = webhooks.create(s, platform.secrets, app_id=made.app_id, url=hook_url, allow_private=True)
        people = []
        for n in range(users):
            user = User(username=f"soak-{n}", login_name=f"soak_{n}")
            s.add(user)
            s.flush()
            people.append((user.id, add_proxy_token(s, made.app_id, user.id, hours=24 * 366)))
        posts = list(s.scalars(select(ResourcePost.id).where(listed_clause()).limit(500)))
    return platform, World(Creds(made.app_id, made.api_key, made.secret_key), people, posts, secret)


def written_rows(platform) -> dict[str, int]:
    """The rows the counted writes leave: comments, point ledger lines, lobby uploads."""
    with platform.db.session() as s:
        return {
            "comment": s.scalar(text("SELECT count(*) FROM comment WHERE content LIKE '%soak %'")),
            "points": s.scalar(text("SELECT count(*) FROM wallet_ledger WHERE reason = 'soak'")),
            # uploaded, not only reserved (a reserve whose upload then failed leaves a PENDING row)
            "upload": s.scalar(
                text("SELECT count(*) FROM lobby_resource WHERE name LIKE 'soak-%' AND state = 'UPLOADED'")
            ),
        }


def rss_mb(pid: int) -> float:
    """Resident set size of a process, from /proc."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


class Load:
    """The open-loop generator and its record: (second since start, kind, status, ms)."""

    def __init__(self, platform, world: World, ports: list[int], seed: int):
        self.platform, self.world, self.ports = platform, world, ports
        self.rng = random.Random(seed)
        self.local = threading.local()
        self.lock = threading.Lock()
        self.records: list[tuple[float, str, int, float]] = []
        self.ok = collections.Counter()  # successful writes by what they must leave in the database
        self.events: list[str] = []
        self.late: list[float] = []  # ms each request was sent after its scheduled time
        self.no_answer = collections.Counter()  # requests that got no HTTP answer, by cause
        self.run_id = uuid.uuid4().hex[:8]  # Idempotency-Keys of this load only
        self.start = 0.0

    def session(self) -> requests.Session:
        if not hasattr(self.local, "session"):
            self.local.session = requests.Session()
        return self.local.session

    def call(
        self, i: int, method: str, path: str, headers: dict | None = None, **kwargs
    ) -> requests.Response:
        """A signed request to the API process of request i."""
        port = self.ports[i % len(self.ports)]
        signed = self.world.creds.headers(method, path, **(headers or {}))
        return self.session().request(
            method, f"http://127.0.0.1:{port}{path}", headers=signed, timeout=60, **kwargs
        )

    def counted(self, what: str, status: int) -> int:
        """status, counting a success of a write that must leave rows."""
        if status == 200:
            with self.lock:
                self.ok[what] += 1
        return status

    def one(self, i: int, kind: str, choice: random.Random) -> int:
        """Request i of its kind; its status (the last one of a reserve-then-upload)."""
        post = choice.choice(self.world.posts)
        user, token = choice.choice(self.world.users)
        proxy = {"X-Proxy-User-Id": str(user), "X-Proxy-Access-Token": token}
        if kind == "read":
            paths = [
                f"{V2}/mods/{post}",
                f"{V2}/mods/{post}/files",
                f"{V2}/resource/{post}/comments",
                f"{V2}/games",
            ]
            return self.call(i, "GET", choice.choice(paths)).status_code
        if kind == "search":
            word = choice.choice(["create", "map", "magic", "tech", "shader", "机械", "pack", "sky"])
            return self.call(i, "GET", f"{V2}/mods/search?keyword={word}&pageSize=20").status_code
        if kind == "write":
            which = choice.random()
            if which < 0.4:
                body = {"entityType": "RESOURCE_POST", "entityId": post, "content": f"soak {i}"}
                return self.counted(
                    "comment", self.call(i, "POST", f"{V2}/community/comment", proxy, json=body).status_code
                )
            if which < 0.7:
                body = {"entityType": "RESOURCE_POST", "entityId": post}
                return self.counted(
                    "like", self.call(i, "POST", f"{V2}/community/like", proxy, json=body).status_code
                )
            body = {"amount": 1, "direction": "ADD", "reason": "soak"}
            adjust = f"{V2}/proxy-user/{user}/points/adjust"
            answer = self.call(
                i, "POST", adjust, {**proxy, "Idempotency-Key": f"soak-{self.run_id}-{i}"}, json=body
            )
            return self.counted("points", answer.status_code)
        if kind == "upload":
            return self.upload(i, proxy, os.urandom(32 * 1024))
        with (
            self.platform.db.session() as s,
            s.begin(),
        ):  # webhook: an outbox event, as a moderator's approval
            row = emit(
                s, kind="resource.updated", data={"postId": post, "title": f"soak {i}", "mainName": "soak"}
            )
        with self.lock:
            self.events.append(row.event_id)
        return 200

    def upload(self, i: int, proxy: dict, content: bytes) -> int:
        """Reserve fresh bytes for a lobby post not yet published, then upload them."""
        item = {
            "sha256": hashlib.sha256(content).hexdigest(),
            "sizeBytes": len(content),
            "name": f"soak-{i}.jar",
            "clientInstallPath": f"mods/soak-{i}.jar",
            "resourceType": "mod",
        }
        base = f"{V2}/server-post/lobby/0/resources"
        answer = self.call(i, "POST", f"{base}/reserve-batch", proxy, json={"items": [item]})
        if answer.status_code != 200:
            return answer.status_code
        result = answer.json()["data"]["results"][0]
        path = f"{base}/{result['reservedResourceId']}/upload"
        files = {"file": ("f.jar", content, "application/octet-stream")}
        answer = self.call(i, "POST", path, {**proxy, "X-Upload-Token": result["uploadToken"]}, files=files)
        return self.counted("upload", answer.status_code)

    def run(self, rate: float, seconds: float, threads: int) -> None:
        total = int(rate * seconds)
        kinds = self.rng.choices(list(MIX), weights=list(MIX.values()), k=total)
        seeds = [self.rng.randrange(2**32) for _ in range(total)]
        self.start = time.perf_counter()

        def send(i: int) -> None:
            pause = self.start + i / rate - time.perf_counter()
            if pause > 0:
                time.sleep(pause)
            began = time.perf_counter()
            late = (began - self.start - i / rate) * 1000
            try:
                status = self.one(i, kinds[i], random.Random(seeds[i]))
            except requests.RequestException as exc:
                status = 599  # no answer at all counts as a server failure; its cause is kept
                with self.lock:
                    self.no_answer[f"{kinds[i]}: {type(exc).__name__}: {str(exc)[:120]}"] += 1
            took = (time.perf_counter() - began) * 1000
            with self.lock:
                self.records.append((began - self.start, kinds[i], status, took))
                self.late.append(late)

        with ThreadPoolExecutor(threads) as pool:
            list(pool.map(send, range(total)))


def p(values: list[float], q: float) -> float:
    """The q-quantile (nearest rank) of values."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def report(load: Load, window: float) -> tuple[list[str], dict]:
    """Per-window table; returns (failures, figures)."""
    failures = []
    by_window = collections.defaultdict(list)
    for at, kind, status, ms in load.records:
        by_window[int(at // window)].append((kind, status, ms))
    print(f"\n{'window':>8} {'requests':>9} {'5xx':>5} {'p50 ms':>8} {'p99 ms':>8}  p99 by kind (ms)")
    p99s = []
    for w in sorted(by_window):
        rows = by_window[w]
        ms = [r[2] for r in rows]
        errors = sum(1 for r in rows if r[1] >= 500)
        kinds = " ".join(
            f"{k}={p([r[2] for r in rows if r[0] == k], 0.99):.0f}"
            for k in MIX
            if any(r[0] == k for r in rows)
        )
        p99s.append(p(ms, 0.99))
        print(f"{w * window:>7.0f}s {len(rows):>9} {errors:>5} {p(ms, 0.5):>8.1f} {p99s[-1]:>8.1f}  {kinds}")
    total_5xx = sum(1 for r in load.records if r[2] >= 500)
    span = max((r[0] for r in load.records), default=0.0)
    print(
        f"sent {len(load.records)} in {span:.0f} s ({len(load.records) / max(span, 1e-9):.1f}/s); "
        f"sent late by p50 {p(load.late, 0.5):.1f} ms, p99 {p(load.late, 0.99):.1f} ms "
        "(a late open loop means the server, or the client, is at capacity)"
    )
    statuses = collections.Counter((r[1], r[2]) for r in load.records)
    print("statuses by kind: " + ", ".join(f"{k} {st}: {n}" for (k, st), n in sorted(statuses.items())))
    for cause, n in load.no_answer.items():
        print(f"no answer ({n}): {cause}")
    if total_5xx:
        failures.append(f"{total_5xx} answers of 5xx or none (599)")
    drift = (p99s[-1] / p99s[0] - 1) * 100 if len(p99s) > 1 and p99s[0] else 0.0
    if drift > 20:
        failures.append(f"p99 of the last window {drift:+.0f}% against the first")
    return failures, {"requests": len(load.records), "5xx": total_5xx, "p99_drift_pct": drift}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rate", type=float, default=40, help="requests per second (open loop)")
    parser.add_argument("--minutes", type=float, default=60)
    parser.add_argument("--window", type=float, default=600, help="seconds per reported window")
    parser.add_argument("--threads", type=int, default=32, help="client threads")
    parser.add_argument("--resources", type=int, default=300, help="demo resources seeded")
    parser.add_argument("--users", type=int, default=50)
    parser.add_argument("--port", type=int, default=18800, help="first of 5 loopback ports")
    parser.add_argument("--seed", type=int, default=31)
    args = parser.parse_args()
    # a SIGTERM (timeout, a stopped CI job) still stops the servers and the worker it started
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))

    tmp = Path(tempfile.mkdtemp(prefix="modhub-soak-"))
    redis_server = RedisServer(tmp)
    redis_server.port, redis_server.url = args.port + 4, f"redis://127.0.0.1:{args.port + 4}/0"
    redis_server.start()
    receiver_port, api_ports = args.port + 3, [args.port + 1, args.port + 2]
    env = {
        "MODHUB_DATABASE_URL": DB_URL,
        "MODHUB_REDIS_URL": redis_server.url,
        "MODHUB_ENCRYPTION_KEY": Fernet.generate_key().decode(),
        "MODHUB_DATA_DIR": str(tmp),
        "MODHUB_WEBHOOK_ALLOW_PRIVATE": "1",
        "MODHUB_WEBHOOK_QUEUE": "webhooks-soak",
    }
    print(
        f"preparing: {args.resources} demo resources, {args.users} users, "
        f"database {DB_URL.rsplit('/', 1)[-1]}"
    )
    platform, world = prepare(env, f"http://127.0.0.1:{receiver_port}/hook", args.resources, args.users)
    procs: dict[str, subprocess.Popen] = {}
    try:
        procs["receiver"] = start_receiver(receiver_port, world.secret)
        for n, port in enumerate(api_ports, 1):
            cmd = [sys.executable, "-m", "uvicorn", "--factory", "modhub.asgi:create", "--port", str(port)]
            cmd += ["--log-level", "warning", "--no-access-log"]
            # as `modhub serve`: idle connections outlive the client's pool (no reset on reuse)
            cmd += ["--timeout-keep-alive", str(Settings.keep_alive_seconds)]
            procs[f"api-{n}"] = wait_serving(port, start(cmd, env=env, name=f"soak-api-{n}"))
        worker = [
            sys.executable,
            "-m",
            "modhub.cli",
            "worker",
            "--queue",
            "webhooks-soak",
            "--log-level",
            "WARNING",
        ]
        procs["worker"] = subprocess.Popen(worker, cwd=ROOT, env={**os.environ, **env})
        time.sleep(3)  # the worker imports and registers
        watched = {name: procs[name].pid for name in ("api-1", "api-2", "worker")}
        load = Load(platform, world, api_ports, args.seed)
        print(f"load: {args.rate}/s for {args.minutes} min, mix {MIX}, {args.threads} client threads")
        # warm-up (a minute's worth at most, outside the figures): first requests build caches
        Load(platform, world, api_ports, args.seed + 1).run(
            args.rate, min(30.0, args.minutes * 6), args.threads
        )
        rss_start = {name: rss_mb(pid) for name, pid in watched.items()}
        rows_before = written_rows(platform)
        load.run(args.rate, args.minutes * 60, args.threads)
        rss_end = {name: rss_mb(pid) for name, pid in watched.items()}
        failures, figures = report(load, args.window)

        print("\nRSS (MiB) from the start of the load to its end:")
        for name in watched:
            growth = (rss_end[name] / rss_start[name] - 1) * 100
            print(f"  {name:8s} {rss_start[name]:8.1f} -> {rss_end[name]:8.1f}  {growth:+.1f}%")
            if growth >= 10:
                failures.append(f"{name} RSS grew {growth:+.1f}%")

        deadline, wanted = time.monotonic() + 120, set(load.events)
        while time.monotonic() < deadline:
            got = stats(receiver_port)
            if wanted <= set(got["first"]):
                break
            time.sleep(1)
        delivered = len(wanted & set(got["first"]))
        print(
            f"\nwebhooks: {delivered} of {len(wanted)} events delivered, bad signatures {got.get('bad', 0)}"
        )
        if delivered != len(wanted) or got.get("bad"):
            failures.append(f"webhooks: {len(wanted) - delivered} not delivered")

        after = written_rows(platform)
        rows = {what: after[what] - rows_before[what] for what in after}
        with platform.db.session() as s:
            events = s.scalar(select(func.count()).select_from(text("webhook_event")))
        counted = {"comment": load.ok["comment"], "points": load.ok["points"], "upload": load.ok["upload"]}
        print(
            f"rows written: {rows} against successes {counted} "
            f"(likes toggled: {load.ok['like']}); outbox events {events}"
        )
        for what in rows:
            if rows[what] != counted[what]:
                failures.append(f"{what}: {rows[what]} rows for {counted[what]} successes")
        print(
            f"\n{figures['requests']} requests, {figures['5xx']} 5xx, "
            f"p99 drift {figures['p99_drift_pct']:+.0f}%"
        )
        print("FAILED: " + "; ".join(failures) if failures else "PASSED")
        sys.exit(1 if failures else 0)
    finally:  # the worker first, while what it talks to (Redis, the receiver) is still up
        for proc in sorted(procs.values(), key=lambda proc: proc is not procs.get("worker")):
            stop(proc)
        redis_server.stop()


if __name__ == "__main__":
    main()
