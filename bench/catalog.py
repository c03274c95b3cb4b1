"""Catalog benchmark: search, detail and batch through a real server on a seeded catalogue.

    .venv/bin/python bench/catalog.py [--resources 100000] [--reuse] [--requests 200]
                                      [--seconds 10] [--connections 8] [--workers 2]
                                      [--rounds 3] [--record-cache-seconds 30] [--floors-only]

The app is served by uvicorn on loopback (the deployment's own server), over the seeded
PostgreSQL database and Redis; every request is signed and goes through the whole stack.
Each figure comes with a baseline measured in the same run: the very SQL statements the
request ran (captured at the DBAPI on an in-process copy of the app) replayed directly on raw
psycopg2 connections.

- Latency (searches, detail, batch): one request at a time over a keep-alive connection, served
  with nothing kept (MODHUB_RECORD_CACHE_SECONDS=0: a kept page or record is not measured).
  Server-side time is the Server-Timing header (arrival at the application to the start of the
  answer); the client's round trip is shown beside it. Baseline: the SQL replayed one run at a time,
  its statements one after the other (a search's count, which the server runs beside its page, too).
- Throughput (detail over 200 resources, batch(50) over 20 bodies): wrk with --connections
  against --workers uvicorn processes for --seconds, in --rounds rounds. Each round measures,
  back to back under the same load, four floors (bench/floor_app.py: a bare Starlette app
  answering a fixed envelope-sized JSON, an empty Connexion AsyncApp operation, an empty
  Connexion FlaskApp operation, and the whole modhub stack with a detail handler that reads
  nothing) and the real detail and batch, and prints its ratios (also to the bare floor, measured
  first and again last in the round: the mean of the two is the round's floor, since back-to-back
  runs of the bare app alone differ by a fifth on a 2-core machine); the
  medians of the rounds' ratios are the figures (issue 17: detail / stack >= 0.7, batch / stack
  >= 0.35, stack / empty >= 0.75; issue 33: detail / bare >= 0.20, batch / bare >= 0.08).
  The real server also serves, in each round: every listed resource in turn ("cold", no
  warm-up: the record cache mostly misses; issue 33: >= 0.05 x bare), ten keyword searches in
  turn (>= 0.008 x bare, p99 < 150 ms under 16 connections; after its first pass, each search's
  page is kept: models/record_cache.py) and the feed's first 200 sync
  pages of 100 (>= 0.012 x bare). Issue 33's figures are taken with --connections 16.
  Baseline beside them: --connections client processes replaying the same requests'
  SQL for the same time (for cold, search and sync: their SQL captured on a sample, the
  ceiling the database alone sets on this machine). Last, a bare Flask app doing the same checks and reads
  (bench/bare_app.py, gunicorn) under the same load.
- Sync: a full walk of the feed through the server; baseline: the walk's SQL replayed directly.

--floors-only measures the two floors alone, back to back in --rounds rounds (the stack floor
reads no catalogue, so a small seeded database will do: --resources 200).

--reuse keeps an already seeded benchmark database (seeding 100,000 posts takes a few minutes).
The database is vacuumed and analyzed before measuring, as autovacuum would have done.
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlencode

import psycopg2
from cryptography.fernet import Fernet
from sqlalchemy import event, func, select
from sqlalchemy.engine import Engine, make_url

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.servers import start, stop, wait_serving  # noqa: E402
from models.catalog.queries import listed_clause  # noqa: E402
from models.catalog.tables import ResourcePost  # noqa: E402
from models.identity import applications  # noqa: E402
from models.search.counting import THREAD_PREFIX as COUNTING_THREADS  # noqa: E402
from modhub.app import build_platform, create_app  # noqa: E402
from modhub.core.statements import PLANS  # noqa: E402
from modhub.core.statements import REGISTRY as statements_registry  # noqa: E402
from modhub.migrate import upgrade  # noqa: E402
from modhub.seed import seed_cli  # noqa: E402
from modhub.settings import Settings  # noqa: E402
from tests.support import Creds, recreate_database  # noqa: E402

DB_URL = os.environ.get(
    "MODHUB_BENCH_CATALOG_URL", "postgresql+psycopg2://postgres@127.0.0.1:5432/modhub_bench_catalog"
)
REDIS_URL = os.environ.get("MODHUB_BENCH_REDIS_URL", "redis://127.0.0.1:6379/15")
PORT = int(os.environ.get("MODHUB_BENCH_PORT", "18181"))  # another port: runs side by side
FLOOR_PORT = PORT + 1

# keyword searches under load, in turn (throughput and p99)
KEYWORDS = [
    "Optimizer",
    "boosts performance",
    "ptimiz",
    "优化",
    "机械工艺",
    "Craft",
    "magic",
    "shader",
    "map",
    "tech",
]
SEARCHES = [
    ("keyword, English word", {"keyword": "Optimizer"}),
    ("keyword, English phrase", {"keyword": "boosts performance"}),
    ("keyword, partial word", {"keyword": "ptimiz"}),
    ("keyword, Chinese 2 chars", {"keyword": "优化"}),
    ("keyword, Chinese 4 chars", {"keyword": "机械工艺"}),
    ("keyword + section + type", {"keyword": "Craft", "sectionCode": "minecraft", "resourceType": "mod"}),
    ("filters, sort downloads", {"sectionCode": "minecraft", "resourceType": "mod", "sort": "downloads"}),
    ("filters, category, sort rating", {"mainCategory": "mod-tech", "isPaid": "false", "sort": "rating"}),
    ("no filter, page 50 of 100", {"pageNum": 50, "pageSize": 100}),
]


class SqlCapture:
    """Records the DBAPI statements of every engine while `on` (reads only: SELECT, WITH and EXECUTE, for
    replay), the search's counting engine (models/search/counting.py) included."""

    def __init__(self):
        self.on, self.statements = False, []
        event.listen(Engine, "before_cursor_execute", self._record)

    def _record(self, conn, cursor, statement, parameters, context, executemany):
        if not self.on:
            return
        # a prepared read's plan mode, before its EXECUTE (modhub.core.statements)
        plan = next((prefix for prefix in PLANS.values() if statement.startswith(prefix)), "")
        prepare, body = None, statement.removeprefix(plan)
        if body.startswith("PREPARE "):  # a connection's first EXECUTE of it
            prepare, body = body.rsplit("; ", 1)
        elif body.startswith("EXECUTE "):
            name = body[8:].split("(", 1)[0].strip()
            prepare = statements_registry[name].prepare_sql(conn.dialect)
        if body.lstrip().upper().startswith(("SELECT", "WITH", "EXECUTE ")):
            counting = threading.current_thread().name.startswith(COUNTING_THREADS)  # a search's count
            self.statements.append((plan + body, parameters, prepare, counting))

    def around(self, call):
        """Run call() and return (its result, the reads it ran)."""
        self.on, self.statements = True, []
        try:
            return call(), self.statements
        finally:
            self.on = False


def prepare(settings: Settings, resources: int, reuse: bool):
    """The seeded database (kept with --reuse when it already holds posts) and its platform."""
    if reuse and _post_count(settings):
        upgrade(settings.database_url)  # a kept database gets the migrations added since
    else:
        recreate_database(settings.database_url)
        upgrade(settings.database_url)
        started = time.perf_counter()
        seed_cli(build_platform(settings), resources=resources)
        print(f"seeded {resources} resources in {time.perf_counter() - started:.0f} s")
    platform = build_platform(settings)
    with platform.db.session() as s, s.begin():
        creds = applications.create(
            s, platform.secrets, name="catalog bench", approve=True, per_minute=10**9, per_day=10**9
        )
    return platform, Creds(creds.app_id, creds.api_key, creds.secret_key)


def _post_count(settings: Settings) -> int:
    try:
        with build_platform(settings).db.session() as s:
            return s.scalar(select(func.count(ResourcePost.id)))
    except Exception:  # noqa: BLE001 - no database or no schema yet: seed afresh
        return 0


_PREPARED_ON: dict[int, set[str]] = {}  # the PREPAREs run on each replaying connection


def run_statements(cur, statements) -> None:
    """Execute captured statements directly, fetching every row as the app would. A search's count
    runs as on the app's counting connections, with enable_seqscan off (models/search/counting.py).
    A prepared statement's EXECUTE is preceded by its PREPARE on a connection's first use, as the
    app does (modhub.core.statements)."""
    for statement, parameters, prepare, counting in statements:
        if prepare:
            prepared = _PREPARED_ON.setdefault(id(cur.connection), set())
            if prepare not in prepared:
                cur.execute(prepare, ())  # () as the app sends it: its %% (a modulo) is then %
                prepared.add(prepare)
        if counting:
            cur.execute("SET enable_seqscan = off")
        cur.execute(statement, parameters)
        cur.fetchall()
        if counting:
            cur.execute("RESET enable_seqscan")


def replay(raw, statements, times: int) -> list[float]:
    """Milliseconds per run of the statements, executed directly."""
    laps = []
    with raw.cursor() as cur:
        for _ in range(times):
            started = time.perf_counter()
            run_statements(cur, statements)
            laps.append((time.perf_counter() - started) * 1000)
    raw.rollback()
    return laps


def pct(laps: list[float], q: int) -> float:
    """The q-th percentile."""
    return statistics.quantiles(laps, n=100, method="inclusive")[q - 1]


class Request:
    """One signed request: its SQL (captured in-process) and its bytes for the server."""

    def __init__(
        self, creds: Creds, method: str, path: str, params: dict | None = None, body: dict | None = None
    ):
        self.method, self.path, self.body = method, path, body
        self.target = path + ("?" + urlencode(params) if params else "")
        self.creds = creds
        self.statements: list = []

    def headers(self) -> dict:
        extra = {"Content-Type": "application/json"} if self.body is not None else {}
        return self.creds.headers(self.method, self.path, **extra)

    def payload(self) -> str | None:
        return None if self.body is None else json.dumps(self.body)

    def capture(self, client, capture: SqlCapture) -> Request:
        """Run it once in-process and keep the reads it ran."""

        def call():
            response = client.request(
                self.method, self.target, headers=self.headers(), content=self.payload()
            )
            assert response.status_code == 200 and response.json()["code"] == 0, response.text

        call()  # warm
        _, self.statements = capture.around(call)
        return self


def serve(module: str, port: int, workers: int, env: dict, factory: bool) -> subprocess.Popen:
    """uvicorn serving module on loopback, once it answers."""
    cmd = [
        sys.executable,
        "-m",
        "uvicorn",
        *(["--factory"] if factory else []),
        module,
        "--port",
        str(port),
        "--workers",
        str(workers),
        "--no-access-log",
        "--log-level",
        "warning",
    ]
    return wait_serving(port, start(cmd, env=env, name="catalog"))


def latency(request: Request, times: int, raw) -> dict:
    """Server-side (Server-Timing), round-trip and replayed-SQL latencies of one request."""
    conn = http.client.HTTPConnection("127.0.0.1", PORT)
    server, trip = [], []
    for i in range(times + 5):
        started = time.perf_counter()
        conn.request(request.method, request.target, body=request.payload(), headers=request.headers())
        response = conn.getresponse()
        body = response.read()
        elapsed = (time.perf_counter() - started) * 1000
        assert response.status == 200 and json.loads(body)["code"] == 0, body[:300]
        if i >= 5:  # the first few warm the worker
            trip.append(elapsed)
            server.append(float(response.getheader("Server-Timing").partition("dur=")[2]))
    conn.close()
    sql = replay(raw, request.statements, times)
    return {
        "p50": pct(server, 50),
        "p95": pct(server, 95),
        "trip95": pct(trip, 95),
        "sql50": pct(sql, 50),
        "sql95": pct(sql, 95),
    }


def print_latency(name: str, row: dict, statements: int) -> None:
    print(
        f"{name:32s} {row['p50']:7.2f} {row['p95']:7.2f} {row['trip95']:8.2f}   {row['sql50']:7.2f} "
        f"{row['sql95']:7.2f}  ({statements} reads)"
    )


WRK_SCRIPT = """
local requests = {}
%s
local threads, i = 0, 0
setup = function(thread)
  thread:set("offset", threads)
  threads = threads + 1
end
init = function(_)
  i = (offset or 0) * math.floor(#requests / 2)
end
request = function()
  i = i %% #requests + 1
  return requests[i]
end
done = function(summary, latency, _)
  io.write(string.format("RESULT %%d %%d %%d %%.3f %%.3f\\n", summary.requests, summary.duration,
    summary.errors.status, latency:percentile(50) / 1000, latency:percentile(99) / 1000))
end
"""


def lua_string(value: str) -> str:
    return json.dumps(value)  # JSON string syntax is valid Lua for these ASCII values


def wrk(port: int, requests: list[Request], seconds: int, connections: int) -> dict:
    """Requests/s of wrk cycling over the requests (its two threads start at the first and at the
    middle of the list: over a long list, neither reads what the other just read)."""
    lines = []
    for r in requests:
        headers = (
            "{" + ", ".join(f"[{lua_string(k)}] = {lua_string(v)}" for k, v in r.headers().items()) + "}"
        )
        body = lua_string(r.payload()) if r.body is not None else "nil"
        lines.append(
            f"requests[#requests + 1] = wrk.format({lua_string(r.method)}, "
            f"{lua_string(r.target)}, {headers}, {body})"
        )
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as script:
        script.write(WRK_SCRIPT % "\n".join(lines))
    try:
        out = subprocess.run(
            [
                "wrk",
                "-t2",
                f"-c{connections}",
                f"-d{seconds}s",
                "-s",
                script.name,
                f"http://127.0.0.1:{port}",
            ],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    finally:
        os.unlink(script.name)
    done, duration_us, bad, p50, p99 = re.search(r"RESULT (\d+) (\d+) (\d+) ([\d.]+) ([\d.]+)", out).groups()
    if int(bad) or "Non-2xx" in out:
        raise SystemExit("non-2xx answers under load:\n" + out)
    return {"rps": int(done) / (int(duration_us) / 1e6), "p50": float(p50), "p99": float(p99)}


def _replay_for(args) -> float:
    """One client process: from `begin`, replay the statement sets round-robin until `end`;
    its runs per second."""
    dsn, sets, begin, end = args
    conn = psycopg2.connect(dsn)
    time.sleep(max(0.0, begin - time.time()))
    start, done = time.time(), 0  # a process that started late (a loaded machine) measures less
    with conn.cursor() as cur:
        while time.time() < end:
            run_statements(cur, sets[done % len(sets)])
            done += 1
    conn.rollback()
    conn.close()
    return done / (end - start) if end > start else 0.0


def sql_throughput(requests: list[Request], seconds: int, connections: int) -> float:
    """Runs/s of the requests' SQL replayed directly by `connections` client processes, all
    started (and connected) before the common measuring window opens."""
    u = make_url(DB_URL)
    # as the app's connections are (modhub.db.connect_args): no JIT compilation
    dsn = f"host={u.host} port={u.port or 5432} user={u.username} dbname={u.database} options='-c jit=off'"
    sets = [r.statements for r in requests]
    with multiprocessing.get_context("spawn").Pool(connections) as pool:
        begin = time.time() + 3 + connections  # every process connected before the window opens
        return sum(pool.map(_replay_for, [(dsn, sets, begin, begin + seconds)] * connections))


def sync_pages(creds: Creds, client, *, size: int, pages: int) -> list[Request]:
    """The first `pages` pages of the feed (page size `size`), each as a request of its cursor."""
    path, cursor, found = "/openapi/v2/mods/sync", "", []
    while len(found) < pages:
        found.append(Request(creds, "GET", path, {"cursor": cursor, "size": size}))
        data = client.get(found[-1].target, headers=found[-1].headers()).json()["data"]
        if not data["hasMore"]:
            break
        cursor = data["nextCursor"]
    return found


def sync_walk(creds: Creds, client, capture: SqlCapture, raw) -> None:
    """A full walk of the feed (size 200) through the server, then its SQL replayed directly."""
    path = "/openapi/v2/mods/sync"

    def walk(get) -> tuple[int, int]:
        cursor, records, calls = "", 0, 0
        while True:
            data = get(path + "?" + urlencode({"cursor": cursor, "size": 200}))["data"]
            records += len(data["items"]) + len(data["deletedPostIds"])
            cursor, calls = data["nextCursor"], calls + 1
            if not data["hasMore"]:
                return records, calls

    conn = http.client.HTTPConnection("127.0.0.1", PORT)

    def over_http(target):
        conn.request("GET", target, headers=creds.headers("GET", path))
        return json.loads(conn.getresponse().read())

    started = time.perf_counter()
    records, calls = walk(over_http)
    elapsed = time.perf_counter() - started
    conn.close()
    in_process = lambda t: client.get(t, headers=creds.headers("GET", path)).json()  # noqa: E731
    _, statements = capture.around(lambda: walk(in_process))
    base = replay(raw, statements, 1)[0] / 1000
    print(
        f"sync walk: {records} records in {calls} calls, {elapsed:.1f} s = {records / elapsed:,.0f} "
        f"records/s (target: 100k under 60 s); same SQL directly {base:.1f} s = "
        f"{records / base:,.0f} records/s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--resources", type=int, default=100_000)
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--connections", type=int, default=8)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--reuse", action="store_true")
    parser.add_argument(
        "--rounds", type=int, default=3, help="throughput rounds (floors and real, back to back)"
    )
    parser.add_argument(
        "--record-cache-seconds",
        type=float,
        default=30.0,
        help="the served app's MODHUB_RECORD_CACHE_SECONDS (0: records read every time)",
    )
    parser.add_argument(
        "--floors-only",
        action="store_true",
        help="only the two floors (empty Connexion, whole stack), back to back in "
        "--rounds rounds: no latency, real server, SQL or bare Flask figures",
    )
    args = parser.parse_args()
    if shutil.which("wrk") is None:  # before minutes of seeding, not after
        parser.error("wrk is not installed (Debian: apt-get install wrk)")
    key = Fernet.generate_key().decode()
    settings = Settings(
        data_dir=Path("/tmp/modhub-bench-catalog"),
        database_url=DB_URL,
        redis_url=REDIS_URL,
        encryption_key=key,
    )
    env = {
        "MODHUB_DATABASE_URL": DB_URL,
        "MODHUB_REDIS_URL": REDIS_URL,
        "MODHUB_ENCRYPTION_KEY": key,
        "MODHUB_DATA_DIR": "/tmp/modhub-bench-catalog",
        "MODHUB_RECORD_CACHE_SECONDS": str(args.record_cache_seconds),
    }
    platform, creds = prepare(settings, args.resources, args.reuse)
    if args.floors_only:  # the stack floor reads no catalogue: any post ids do
        details = [Request(creds, "GET", f"/openapi/v2/mods/{i}") for i in range(1, 201)]
        throughput(args, env, creds, details, None)
        return
    with platform.db.session() as s:
        listed = list(s.scalars(select(ResourcePost.id).where(listed_clause())))
    u = make_url(DB_URL)
    raw = psycopg2.connect(
        host=u.host, port=u.port or 5432, user=u.username, dbname=u.database, options="-c jit=off"
    )
    raw.autocommit = True
    with raw.cursor() as cur:  # a settled database: statistics and visibility map up to date
        cur.execute("VACUUM ANALYZE")
    raw.autocommit = False
    capture = SqlCapture()
    # the capturing copy keeps no records: it shows the SQL a request runs when it reads
    app = create_app(settings.replace(record_cache_seconds=0), db=platform.db, quota=platform.quota)
    rng = random.Random(7)
    search = "/openapi/v2/mods/search"
    with app.test_client() as client:
        searches = [
            (name, Request(creds, "GET", search, params).capture(client, capture))
            for name, params in SEARCHES
        ]
        details = [
            Request(creds, "GET", f"/openapi/v2/mods/{i}").capture(client, capture)
            for i in rng.sample(listed, 200)
        ]
        batches = [
            Request(creds, "POST", "/openapi/v2/mods", body={"postIds": rng.sample(listed, 50)}).capture(
                client, capture
            )
            for _ in range(20)
        ]
        # one request at a time, nothing kept (a kept search page or record would be measured
        # instead of the read): what a first request costs
        uncached = {**env, "MODHUB_RECORD_CACHE_SECONDS": "0"}
        server = serve("modhub.asgi:create", PORT, args.workers, uncached, factory=True)
        try:
            print(
                f"{len(listed)} listed of {args.resources} resources; latency: {args.requests} "
                f"requests per row, one at a time, nothing kept (MODHUB_RECORD_CACHE_SECONDS=0), ms"
            )
            print(
                f"{'request':32s} {'p50':>7s} {'p95':>7s} {'trip95':>8s}   {'sql50':>7s} {'sql95':>7s}"
                "   (p50/p95: server-side, Server-Timing; trip: client round trip)"
            )
            rows = {}
            for name, request in [*searches, ("detail", details[0]), ("batch of 50", batches[0])]:
                rows[name] = latency(request, args.requests, raw)
                print_latency(name, rows[name], len(request.statements))
            worst = max(r["p95"] for name, r in rows.items() if name.startswith("keyword"))
            print(f"worst keyword search p95 server-side: {worst:.2f} ms (target < 50 ms)")
            sync_walk(creds, client, capture, raw)
        finally:
            stop(server)
        under_load = {
            # every listed resource in turn (20,000 distinct ones of a larger catalogue: wrk's
            # script holds each request's signed headers)
            "cold": [
                Request(creds, "GET", f"/openapi/v2/mods/{i}")
                for i in (listed if len(listed) <= COLD_MAX else rng.sample(listed, COLD_MAX))
            ],
            "search": [Request(creds, "GET", search, {"keyword": w, "pageSize": 20}) for w in KEYWORDS],
            "sync": sync_pages(creds, client, size=100, pages=200),
        }
        # their SQL, captured on a sample (every listed resource would take minutes in process)
        sql_ceilings = {
            "cold": [r.capture(client, capture) for r in rng.sample(under_load["cold"], 300)],
            "search": [r.capture(client, capture) for r in under_load["search"]],
            "sync": [r.capture(client, capture) for r in under_load["sync"]],
        }
        throughput(args, env, creds, details, batches, under_load, sql_ceilings)
    raw.close()


COLD_MAX = 20_000
# issue 33's targets under load, as ratios to the bare Starlette floor of the same round
BARE_TARGETS = {"detail": 0.20, "cold": 0.05, "batch": 0.08, "search": 0.008, "sync": 0.012}
P99_TARGETS_MS = {"search": 150.0}  # and the median p99 of the rounds under those 16 connections


def throughput(
    args,
    env: dict,
    creds: Creds,
    details: list[Request],
    batches: list[Request] | None,
    under_load: dict[str, list[Request]] | None = None,
    sql_ceilings: dict[str, list[Request]] | None = None,
) -> None:
    """--rounds rounds, each measuring the floors and the real server back to back under the same
    load, so that every ratio compares figures of one moment of the machine; the SQL baselines
    once. Each round's ratios are printed, then their medians. Without batches (--floors-only),
    the floors alone. The real server also serves under_load: every listed resource in turn
    (cold: no warm-up, the record cache mostly misses), keyword searches in turn, sync pages;
    sql_ceilings (captured samples of the same kinds) are replayed as their SQL ceilings."""
    print(
        f"throughput: wrk {args.connections} connections, {args.workers} uvicorn workers, "
        f"{args.seconds} s per figure; {args.rounds} rounds of: empty Connexion operation, whole "
        "stack with a handler that reads nothing" + ("" if batches is None else ", detail, batch of 50")
    )
    empty_requests = [Request(creds, "GET", f"/mods/{i}") for i in range(1, 201)]
    servers = (
        ("bare", "bench.floor_app:bare", False, empty_requests),
        ("async", "bench.floor_app:async_app", False, empty_requests),
        ("empty", "bench.floor_app:app", False, empty_requests),
        ("stack", "bench.floor_app:create_stack", True, details),
        ("real", "modhub.asgi:create", True, None),
    )
    if batches is None:  # plus the empty operation served through modhub's one-hop bridge
        servers = (*servers[:4], ("bridged", "bench.floor_app:create_bridged", True, empty_requests))
    servers = (*servers, ("bare again", "bench.floor_app:bare", False, empty_requests))
    rounds = []
    for n in range(1, args.rounds + 1):
        got = {}
        for name, target, factory, requests in servers:
            proc = serve(target, FLOOR_PORT, args.workers, env, factory=factory)
            try:
                if requests is not None:
                    wrk(FLOOR_PORT, requests, 2, args.connections)  # warm-up
                    got[name] = wrk(FLOOR_PORT, requests, args.seconds, args.connections)
                else:
                    for label, reqs in (("detail", details), ("batch", batches), *(under_load or {}).items()):
                        if label != "cold":
                            wrk(FLOOR_PORT, reqs, 2, args.connections)
                        got[label] = wrk(FLOOR_PORT, reqs, args.seconds, args.connections)
            finally:
                stop(proc)
        first, last = got["bare"], got.pop("bare again")
        got["bare"] = {"rps": (first["rps"] + last["rps"]) / 2, "p99": max(first["p99"], last["p99"])}
        rounds.append(got)
        print(
            f"  round {n}: bare {first['rps']:.0f} then {last['rps']:.0f} req/s (the floor: their mean "
            f"{got['bare']['rps']:.0f}), "
            + ", ".join(
                f"{k} {v['rps']:.0f} req/s (p99 {v['p99']:.1f} ms)" for k, v in got.items() if k != "bare"
            )
        )
        print(
            "           x bare Starlette: "
            + ", ".join(f"{k} {v['rps'] / got['bare']['rps']:.3f}" for k, v in got.items() if k != "bare")
        )
        if batches is None:
            print(
                f"           stack / empty {got['stack']['rps'] / got['empty']['rps']:.2f}, stack / empty "
                f"through the one-hop bridge {got['stack']['rps'] / got['bridged']['rps']:.2f}"
            )
            continue
        print(
            f"           detail / stack {got['detail']['rps'] / got['stack']['rps']:.2f}, batch / stack "
            f"{got['batch']['rps'] / got['stack']['rps']:.2f}, stack / empty "
            f"{got['stack']['rps'] / got['empty']['rps']:.2f}"
        )
    if batches is None:
        ratios = [r["stack"]["rps"] / r["empty"]["rps"] for r in rounds]
        bridged = [r["stack"]["rps"] / r["bridged"]["rps"] for r in rounds]
        print(
            f"  median over {len(rounds)} rounds: stack floor / empty Connexion "
            f"{statistics.median(ratios):.2f} (target >= 0.75); stack floor / the empty operation "
            f"through modhub's one-hop bridge (the stricter floor) {statistics.median(bridged):.2f}"
        )
        return
    sql = {
        name: sql_throughput(reqs, args.seconds, args.connections)
        for name, reqs in (("detail", details), ("batch", batches), *(sql_ceilings or {}).items())
    }
    print(
        f"  SQL replayed directly by {args.connections} processes: detail {sql['detail']:.0f} runs/s, "
        f"batch of 50 {sql['batch']:.0f} runs/s (the records cache makes the served figures "
        "exceed these)"
    )
    if sql_ceilings:
        # the database's own ceiling on this machine: a read that must run this SQL cannot be
        # served faster than the SQL alone runs, whatever the framework costs
        print(
            "  the reads that must query, against their SQL alone (same clients, same time): "
            + ", ".join(
                f"{label} {statistics.median(r[label]['rps'] for r in rounds):.0f} / {sql[label]:.0f} "
                f"runs/s = {statistics.median(r[label]['rps'] for r in rounds) / sql[label]:.2f}, "
                f"SQL alone x bare {sql[label] / statistics.median(r['bare']['rps'] for r in rounds):.4f}"
                for label in sql_ceilings
            )
        )

    def median(key, base):
        return statistics.median(r[key]["rps"] / r[base]["rps"] for r in rounds)

    print(
        f"  medians over {len(rounds)} rounds (records kept {args.record_cache_seconds:g} s): detail / "
        f"stack floor {median('detail', 'stack'):.2f} (target >= 0.70), batch of 50 / stack floor "
        f"{median('batch', 'stack'):.2f} (target >= 0.35), stack floor / empty Connexion "
        f"{median('stack', 'empty'):.2f} (target >= 0.75); x bare Starlette: detail "
        f"{median('detail', 'bare'):.3f} (issue 33 target >= 0.20), batch of 50 "
        f"{median('batch', 'bare'):.3f} (>= 0.08), empty AsyncApp operation "
        f"{median('async', 'bare'):.3f}, empty FlaskApp operation {median('empty', 'bare'):.3f}"
    )
    print(f"  issue 33, medians over {len(rounds)} rounds, x bare Starlette (target), p99 under load:")
    for label, target in BARE_TARGETS.items():
        if label in rounds[0]:
            p99 = statistics.median(r[label]["p99"] for r in rounds)
            ratio = median(label, "bare")
            bound = P99_TARGETS_MS.get(label)
            met = ratio >= target and (bound is None or p99 < bound)
            print(
                f"    {label:7s} {ratio:.4f} (>= {target}); p99 {p99:.1f} ms"
                + ("" if bound is None else f" (< {bound:g} ms)")
                + (" met" if met else " MISSED")
            )
    # The issue-2 style baseline: a bare Flask app (gunicorn, same workers) doing the same
    # checks and reads (bench/bare_app.py).
    bare = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "-w",
            str(args.workers),
            "-k",
            "gthread",
            "--threads",
            "8",
            "-b",
            f"127.0.0.1:{FLOOR_PORT}",
            "bench.bare_app:app",
        ],
        cwd=ROOT,
        env={**os.environ, **env},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_serving(FLOOR_PORT, bare)
        bare_rps = wrk(FLOOR_PORT, details, args.seconds, args.connections)["rps"]
        print(
            f"  bare Flask doing the same checks and reads {bare_rps:7.0f} req/s; detail (last round) / "
            f"bare {rounds[-1]['detail']['rps'] / bare_rps:.2f}"
        )
    finally:
        stop(bare)


if __name__ == "__main__":
    main()
