"""Catalog benchmark: search, detail and batch latency and the full sync walk on a seeded catalogue.

Every figure is measured twice in the same run: through the full stack (signed request through
the ASGI app in-process: gateway, Redis quota, Connexion validation, handler, domain, envelope)
and, as the baseline, the very SQL statements that request ran (captured at the DBAPI) replayed
directly on a raw psycopg2 connection. Prints p50/p95 of both and their ratio.

    .venv/bin/python bench/catalog.py [--resources 100000] [--reuse] [--requests 200]

--reuse keeps an already seeded benchmark database (seeding 100,000 posts takes a few minutes).
The database is vacuumed and analyzed before measuring, as autovacuum would have done.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

import psycopg2
from cryptography.fernet import Fernet
from sqlalchemy import event, func, select
from sqlalchemy.engine import make_url

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from models import applications  # noqa: E402
from models.catalog import ResourcePost  # noqa: E402
from models.catalog_queries import listed_clause  # noqa: E402
from modhub.app import build_platform, create_app  # noqa: E402
from modhub.migrate import upgrade  # noqa: E402
from modhub.seed import seed_cli  # noqa: E402
from modhub.settings import Settings  # noqa: E402
from tests.support import Creds, recreate_database  # noqa: E402

DB_URL = os.environ.get("MODHUB_BENCH_CATALOG_URL",
                        "postgresql+psycopg2://postgres@127.0.0.1:5432/modhub_bench_catalog")
REDIS_URL = os.environ.get("MODHUB_BENCH_REDIS_URL", "redis://127.0.0.1:6379/0")

SEARCHES = [
    ("keyword, English word", {"keyword": "Optimizer"}),
    ("keyword, English phrase", {"keyword": "boosts performance"}),
    ("keyword, partial word", {"keyword": "ptimiz"}),
    ("keyword, Chinese 2 chars", {"keyword": "优化"}),
    ("keyword, Chinese 4 chars", {"keyword": "机械工艺"}),
    ("keyword + section + type", {"keyword": "Craft", "sectionCode": "minecraft",
                                  "resourceType": "mod"}),
    ("filters, sort downloads", {"sectionCode": "minecraft", "resourceType": "mod",
                                 "sort": "downloads"}),
    ("filters, category, sort rating", {"mainCategory": "mod-tech", "isPaid": "false",
                                        "sort": "rating"}),
    ("no filter, page 50 of 100", {"pageNum": 50, "pageSize": 100}),
]


class SqlCapture:
    """Records the DBAPI statements of the engine while `on` (SELECTs only, for replay)."""

    def __init__(self, engine):
        self.on, self.statements = False, []
        event.listen(engine, "before_cursor_execute", self._record)

    def _record(self, conn, cursor, statement, parameters, context, executemany):
        if self.on and statement.lstrip().upper().startswith("SELECT"):
            self.statements.append((statement, parameters))

    def around(self, call):
        """Run call() and return (its result, the SELECTs it ran)."""
        self.on, self.statements = True, []
        try:
            return call(), self.statements
        finally:
            self.on = False


def prepare(settings: Settings, resources: int, reuse: bool):
    """The seeded database (kept with --reuse when it already holds posts) and its platform."""
    if not reuse or not _post_count(settings):
        recreate_database(settings.database_url)
        upgrade(settings.database_url)
        started = time.perf_counter()
        seed_cli(build_platform(settings), resources=resources)
        print(f"seeded {resources} resources in {time.perf_counter() - started:.0f} s")
    platform = build_platform(settings)
    with platform.db.session() as s, s.begin():
        creds = applications.create(s, platform.secrets, name="catalog bench", approve=True,
                                    per_minute=10**9, per_day=10**9)
    return platform, Creds(creds.app_id, creds.api_key, creds.secret_key)


def _post_count(settings: Settings) -> int:
    try:
        with build_platform(settings).db.session() as s:
            return s.scalar(select(func.count(ResourcePost.id)))
    except Exception:  # noqa: BLE001 - no database or no schema yet: seed afresh
        return 0


def replay(raw, statements, times: int) -> list[float]:
    """Milliseconds per run of the statements, executed directly."""
    laps = []
    with raw.cursor() as cur:
        for _ in range(times):
            started = time.perf_counter()
            for statement, parameters in statements:
                cur.execute(statement, parameters)
                cur.fetchall()
            laps.append((time.perf_counter() - started) * 1000)
    raw.rollback()
    return laps


def pct(laps: list[float], q: int) -> float:
    """The q-th percentile."""
    return statistics.quantiles(laps, n=100, method="inclusive")[q - 1]


def measure(client, creds, capture, raw, name, method, path, times, **kwargs) -> dict:
    """Full-stack and replayed-SQL latencies of one request shape."""
    def call():
        response = client.request(method, path, headers=creds.headers(method, path), **kwargs)
        assert response.status_code == 200 and response.json()["code"] == 0, response.text
        return response
    for _ in range(5):
        call()
    _, statements = capture.around(call)
    laps = []
    for _ in range(times):
        started = time.perf_counter()
        call()
        laps.append((time.perf_counter() - started) * 1000)
    base = replay(raw, statements, times)
    row = {"p50": pct(laps, 50), "p95": pct(laps, 95), "sql50": pct(base, 50), "sql95": pct(base, 95)}
    print(f"{name:34s} {row['p50']:7.2f} {row['p95']:7.2f}   {row['sql50']:7.2f} {row['sql95']:7.2f}"
          f"   {row['p95'] / row['sql95']:5.2f}  ({len(statements)} SELECTs)")
    return row


def sync_walk(client, creds, capture, raw) -> None:
    """A full walk of the feed (size 200) through the stack, then its SQL replayed directly."""
    path, cursor, records, calls = "/openapi/v2/mods/sync", "", 0, 0

    def walk():
        nonlocal cursor, records, calls
        while True:
            response = client.get(path, params={"cursor": cursor, "size": 200},
                                  headers=creds.headers("GET", path))
            data = response.json()["data"]
            records += len(data["items"]) + len(data["deletedPostIds"])
            cursor, calls = data["nextCursor"], calls + 1
            if not data["hasMore"]:
                return
    started = time.perf_counter()
    _, statements = capture.around(walk)
    elapsed = time.perf_counter() - started
    base = replay(raw, statements, 1)[0] / 1000
    print(f"sync walk: {records} records in {calls} calls, {elapsed:.1f} s = {records / elapsed:,.0f} "
          f"records/s (target: 100k under 60 s); same SQL directly {base:.1f} s = "
          f"{records / base:,.0f} records/s; ratio {elapsed / base:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--resources", type=int, default=100_000)
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--reuse", action="store_true")
    args = parser.parse_args()
    settings = Settings(data_dir=Path("/tmp/modhub-bench-catalog"), database_url=DB_URL,
                        redis_url=REDIS_URL, encryption_key=Fernet.generate_key().decode())
    platform, creds = prepare(settings, args.resources, args.reuse)
    with platform.db.session() as s:
        listed = list(s.scalars(select(ResourcePost.id).where(listed_clause())))
    u = make_url(DB_URL)
    raw = psycopg2.connect(host=u.host, port=u.port or 5432, user=u.username, dbname=u.database)
    raw.autocommit = True
    with raw.cursor() as cur:  # a settled database: statistics and visibility map up to date
        cur.execute("VACUUM ANALYZE")
    raw.autocommit = False
    capture = SqlCapture(platform.db.engine)
    app = create_app(settings, db=platform.db, quota=platform.quota)
    rng = random.Random(7)
    print(f"{len(listed)} listed of {args.resources} resources; {args.requests} requests per row; ms")
    print(f"{'request':34s} {'p50':>7s} {'p95':>7s}   {'sql50':>7s} {'sql95':>7s}   p95/sql95")
    with app.test_client() as client:
        rows = {name: measure(client, creds, capture, raw, name, "GET", "/openapi/v2/mods/search",
                              args.requests, params=params) for name, params in SEARCHES}
        measure(client, creds, capture, raw, "detail", "GET", f"/openapi/v2/mods/{rng.choice(listed)}",
                args.requests)
        measure(client, creds, capture, raw, "batch of 50", "POST", "/openapi/v2/mods", args.requests,
                json={"postIds": rng.sample(listed, 50)})
        sync_walk(client, creds, capture, raw)
    worst = max(r["p95"] for name, r in rows.items() if name.startswith("keyword"))
    print(f"worst keyword search p95: {worst:.2f} ms (target < 50 ms)")
    raw.close()


if __name__ == "__main__":
    main()
