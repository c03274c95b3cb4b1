"""Community benchmark: search, suggest, notifications and a like toggle through a real server.

    .venv/bin/python bench/community.py [--resources 100000] [--reuse] [--requests 200] [--workers 1]

The app is served by uvicorn on loopback over the seeded PostgreSQL database (`modhub demo seed`
data: --resources 100000 gives 20,000 discussion posts, 10,000 questions with their answers,
20,000 moments) and Redis; every request is signed and goes through the whole stack, one at a
time over a keep-alive connection. Server-side time is the Server-Timing header; the client's
round trip is shown beside it. Baseline, measured in the same run: the very SQL statements the
request ran (captured at the DBAPI on an in-process copy of the app) replayed directly on a raw
psycopg2 connection. The like toggle alternates on and off; its baseline replays the captured
statements of one "on" and one "off" request alternately, each committed as the server does.

--reuse keeps an already seeded database (MODHUB_BENCH_COMMUNITY_URL); the migrations are
applied first either way, and the database is vacuumed and analyzed before measuring.
Targets (issue 12): search p95 < 50 ms, suggest p95 < 20 ms, unread count p95 < 5 ms.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import sys
import time
from pathlib import Path

import psycopg2
from cryptography.fernet import Fernet
from sqlalchemy import event, func, select
from sqlalchemy.engine import make_url

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.catalog import Request, SqlCapture, pct, serve  # noqa: E402
from bench.servers import stop  # noqa: E402
from models.community.tables import CommunityPost, Notification  # noqa: E402
from models.identity import applications, tokens  # noqa: E402
from models.types import utcnow  # noqa: E402
from modhub.app import build_platform, create_app  # noqa: E402
from modhub.migrate import upgrade  # noqa: E402
from modhub.seed import seed_cli  # noqa: E402
from modhub.settings import Settings  # noqa: E402
from tests.support import Creds, recreate_database  # noqa: E402

DB_URL = os.environ.get(
    "MODHUB_BENCH_COMMUNITY_URL", "postgresql+psycopg2://postgres@127.0.0.1:5432/modhub_bench_community"
)
REDIS_URL = os.environ.get("MODHUB_BENCH_REDIS_URL", "redis://127.0.0.1:6379/15")
PORT = 18191
V2 = "/openapi/v2/community"

SEARCHES = [
    ("search, Chinese 3 chars (common)", {"keyword": "服务器"}),
    ("search, Chinese 2 chars", {"keyword": "光影"}),
    ("search, English word", {"keyword": "OptiFine"}),
    ("search, English phrase", {"keyword": "Forge crashes"}),
    ("search, partial word", {"keyword": "ptiFin"}),
    ("search, mixed, page 5", {"keyword": "整合包 modpack", "pageNum": 5}),
    ("search, + section", {"keyword": "教程", "sectionCode": "minecraft"}),
    ("search, + type QUESTION_ANSWER", {"keyword": "Java", "entityType": "QUESTION_ANSWER"}),
]
SUGGESTS = ["整", "红石", "M", "Forge", "how", "模组冲突", "s", "光"]


def prepare(settings: Settings, resources: int, reuse: bool):
    """The seeded, migrated database, its platform, app credentials and the busiest user's token."""
    if not reuse or not _community_posts(settings):
        recreate_database(settings.database_url)
        upgrade(settings.database_url)
        started = time.perf_counter()
        seed_cli(build_platform(settings), resources=resources)
        print(f"seeded {resources} resources in {time.perf_counter() - started:.0f} s")
    upgrade(settings.database_url)
    platform = build_platform(settings)
    with platform.db.session() as s, s.begin():
        creds = applications.create(
            s,
            platform.secrets,
            name="community bench",
            approve=True,
            permissions=["user:proxy"],
            per_minute=10**9,
            per_day=10**9,
        )
        user_id, notes = s.execute(
            select(Notification.user_id, func.count())
            .group_by(Notification.user_id)
            .order_by(func.count().desc())
            .limit(1)
        ).one()
        token, _ = tokens.issue_token(
            s, app_id=creds.app_id, user_id=user_id, scopes=[], source="OAUTH", now=utcnow()
        )
        post_id = s.scalar(
            select(CommunityPost.id)
            .where(CommunityPost.is_delete.is_(False), CommunityPost.post_type == "DISCUSS_POST")
            .order_by(CommunityPost.like_count.desc())
            .limit(1)
        )
    print(f"proxy user {user_id} has {notes} notifications; like toggles on discussion post {post_id}")
    return platform, Creds(creds.app_id, creds.api_key, creds.secret_key), user_id, token, post_id


def _community_posts(settings: Settings) -> int:
    try:
        with build_platform(settings).db.session() as s:
            return s.scalar(select(func.count(CommunityPost.id)))
    except Exception:  # noqa: BLE001 - no database or no schema yet: seed afresh
        return 0


class Proxied(Request):
    """A signed request on behalf of the proxy user (X-Proxy-User-Id, X-Proxy-Access-Token)."""

    def __init__(self, *args, proxy: dict, **kwargs):
        super().__init__(*args, **kwargs)
        self.proxy = proxy

    def headers(self) -> dict:
        return {**super().headers(), **self.proxy}


class ReadCapture(SqlCapture):
    """Records the SELECTs and the SET LOCAL of the search (its plan depends on it)."""

    def _record(self, conn, cursor, statement, parameters, context, executemany):
        if self.on and statement.lstrip().upper().startswith(("SELECT", "SET LOCAL")):
            self.statements.append((statement, parameters))


class AllCapture(SqlCapture):
    """Records every statement (writes too), for the like toggle's baseline."""

    def _record(self, conn, cursor, statement, parameters, context, executemany):
        if self.on:
            self.statements.append((statement, parameters))


def measure(requests: list[Request], times: int) -> tuple[list[float], list[float], list]:
    """Server-side and round-trip milliseconds of `times` rounds over the requests (after a
    warm-up), and the answers' data of the last round."""
    conn = http.client.HTTPConnection("127.0.0.1", PORT)
    server, trip, last = [], [], []
    for i in range(times + 5):
        for request in requests:
            started = time.perf_counter()
            conn.request(request.method, request.target, body=request.payload(), headers=request.headers())
            response = conn.getresponse()
            body = response.read()
            elapsed = (time.perf_counter() - started) * 1000
            assert response.status == 200 and json.loads(body)["code"] == 0, body[:300]
            if i >= 5:
                trip.append(elapsed)
                server.append(float(response.getheader("Server-Timing").partition("dur=")[2]))
            if i == times + 4:
                last.append(json.loads(body)["data"])
    conn.close()
    return server, trip, last


def row(
    name: str,
    server: list[float],
    trip: list[float],
    sql: list[float],
    statements: int,
    target: float | None = None,
) -> None:
    p95 = pct(server, 95)
    verdict = "" if target is None else f"  target < {target:g} ms: {'met' if p95 < target else 'MISSED'}"
    print(
        f"{name:36s} {pct(server, 50):7.2f} {p95:7.2f} {pct(trip, 95):8.2f}   {pct(sql, 50):7.2f} "
        f"{pct(sql, 95):7.2f}  ({statements} statements){verdict}"
    )


def replay(raw, statements, times: int) -> list[float]:
    """Milliseconds per run of the statements, executed directly (rows fetched as the app does)."""
    laps = []
    with raw.cursor() as cur:
        for _ in range(times):
            started = time.perf_counter()
            for statement, parameters in statements:
                cur.execute(statement, parameters)
                if cur.description is not None:
                    cur.fetchall()
            laps.append((time.perf_counter() - started) * 1000)
    raw.rollback()
    return laps


def toggle_baseline(raw, on: list, off: list, times: int) -> list[float]:
    """Milliseconds per replayed toggle, alternately the "on" and "off" statements, each committed."""
    laps = []
    with raw.cursor() as cur:
        for i in range(times):
            started = time.perf_counter()
            for statement, parameters in on if i % 2 == 0 else off:
                cur.execute(statement, parameters)
                if cur.description is not None:
                    cur.fetchall()
            raw.commit()
            laps.append((time.perf_counter() - started) * 1000)
    return laps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--resources", type=int, default=100_000)
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--reuse", action="store_true")
    args = parser.parse_args()
    key = Fernet.generate_key().decode()
    data_dir = "/tmp/modhub-bench-community"
    settings = Settings(data_dir=Path(data_dir), database_url=DB_URL, redis_url=REDIS_URL, encryption_key=key)
    env = {
        "MODHUB_DATABASE_URL": DB_URL,
        "MODHUB_REDIS_URL": REDIS_URL,
        "MODHUB_ENCRYPTION_KEY": key,
        "MODHUB_DATA_DIR": data_dir,
    }
    platform, creds, user_id, token, post_id = prepare(settings, args.resources, args.reuse)
    u = make_url(DB_URL)
    raw = psycopg2.connect(host=u.host, port=u.port or 5432, user=u.username, dbname=u.database)
    raw.autocommit = True
    with raw.cursor() as cur:  # a settled database: statistics and visibility map up to date
        cur.execute("VACUUM ANALYZE")
    raw.autocommit = False
    capture = ReadCapture(platform.db.engine)
    app = create_app(settings, db=platform.db, quota=platform.quota)
    proxy = {"X-Proxy-User-Id": str(user_id), "X-Proxy-Access-Token": token}
    with app.test_client() as client:
        searches = [
            (name, Request(creds, "GET", f"{V2}/search", params).capture(client, capture))
            for name, params in SEARCHES
        ]
        suggests = [
            (
                f"suggest '{k}'",
                Request(creds, "GET", f"{V2}/search/suggest", {"keyword": k}).capture(client, capture),
            )
            for k in SUGGESTS
        ]
        reads = [
            (name, Proxied(creds, "GET", path, params, proxy=proxy).capture(client, capture))
            for name, path, params in (
                ("notifications, page 1", f"{V2}/notifications", None),
                ("notifications, unread, page 1", f"{V2}/notifications", {"readFlag": "false"}),
                ("notifications unread-count", f"{V2}/notifications/unread-count", None),
            )
        ]
        event.remove(platform.db.engine, "before_cursor_execute", capture._record)
        everything = AllCapture(platform.db.engine)
        like = Proxied(
            creds, "POST", f"{V2}/like", body={"entityType": "DISCUSS_POST", "entityId": post_id}, proxy=proxy
        )
        toggles = []
        for _ in range(2):  # "on" then "off" (or the reverse): the pair leaves the state as found
            _, statements = everything.around(
                lambda: client.request(
                    "POST", like.target, headers=like.headers(), content=like.payload()
                ).json()
            )
            toggles.append(statements)
    server = serve("modhub.asgi:create", PORT, args.workers, env, factory=True)
    if server.poll() is not None:  # something else answered on the port
        raise SystemExit(f"the server did not start: {server.stderr.read().decode(errors='replace')[-2000:]}")
    try:
        print(
            f"latency: {args.requests} requests per row, one at a time, ms; (p50/p95 server-side, "
            "Server-Timing; trip: client round trip; sql: the same statements replayed directly)"
        )
        print(f"{'request':36s} {'p50':>7s} {'p95':>7s} {'trip95':>8s}   {'sql50':>7s} {'sql95':>7s}")
        for name, request in searches:
            s, t, last = measure([request], args.requests)
            row(
                f"{name} [{last[0]['total']} hits]",
                s,
                t,
                replay(raw, request.statements, args.requests),
                len(request.statements),
                50,
            )
        all_server, all_trip, all_sql = [], [], []
        for name, request in suggests:
            s, t, last = measure([request], max(20, args.requests // 4))
            sql = replay(raw, request.statements, max(20, args.requests // 4))
            all_server += s
            all_trip += t
            all_sql += sql
            row(f"{name} [{len(last[0])}]", s, t, sql, len(request.statements), 20)
        row("suggest, all prefixes above", all_server, all_trip, all_sql, 0, 20)
        for name, request in reads:
            s, t, _ = measure([request], args.requests)
            row(
                name,
                s,
                t,
                replay(raw, request.statements, args.requests),
                len(request.statements),
                5 if name.endswith("unread-count") else None,
            )
        s, t, _ = measure([like], args.requests)
        row(
            "like toggle (on/off alternately)",
            s,
            t,
            toggle_baseline(raw, *toggles, args.requests),
            len(toggles[0]),
        )
    finally:
        stop(server)
    raw.close()


if __name__ == "__main__":
    main()
