"""Cold catalogue reads in-process: the statements each request sends and where its time goes.

    nice -n 19 .venv/bin/python bench/cold_reads.py [--resources 3000] [--reuse] [--times 200]
                                  [--profile] [--timer cpu|wall] [--top 25] [--bodies FILE]

Seeds a demo catalogue (`modhub demo seed`) into its own PostgreSQL database
(MODHUB_BENCH_COLD_URL; Redis: MODHUB_BENCH_REDIS_URL), builds the app in this process with the
record cache off (every detail and batch misses it) and the handler pool replaced by an inline
executor, so the whole request (gateway, validation, handler, envelope) runs in this thread,
driven through httpx's ASGI transport. For each request (a detail, a batch of 50, a sync page of
100, a keyword search page of 20) it prints:

- the statements the request sends to the database (SQLAlchemy `before_cursor_execute`, in the
  request's thread; a search also sends its count beside the page, on a connection of its own:
  models/search/counting.py);
- the wall and CPU time per request in this process over --times requests (different resources
  for details and batches), and with --profile the functions with the highest cumulative time
  under cProfile, per request (CPU time by default: steady on a busy machine, and the wait for
  PostgreSQL left out; --timer wall counts it in).

--bodies FILE writes the answers to a fixed sample of requests (details, batches with an unknown
id, sync pages, searches), as sent but for their traceId, with their ETag: compare the files of
two versions of the code with cmp.

No figure here is a throughput figure (bench/catalog.py measures those against its floors): it is
a rough, single-threaded indication of server-side cost, to see where the time goes.
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import cProfile
import json
import os
import pstats
import random
import re
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
from cryptography.fernet import Fernet
from sqlalchemy import event, func, select
from sqlalchemy.engine import Engine

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import modhub.app  # noqa: E402
from models.catalog.queries import listed_clause  # noqa: E402
from models.catalog.tables import ResourcePost  # noqa: E402
from models.identity import applications  # noqa: E402
from modhub.app import build_platform, create_app  # noqa: E402
from modhub.migrate import upgrade  # noqa: E402
from modhub.seed import seed_cli  # noqa: E402
from modhub.settings import Settings  # noqa: E402
from tests.support import Creds, recreate_database  # noqa: E402

DB_URL = os.environ.get(
    "MODHUB_BENCH_COLD_URL", "postgresql+psycopg2://postgres@127.0.0.1:5432/modhub_bench_cold"
)
REDIS_URL = os.environ.get("MODHUB_BENCH_REDIS_URL", "redis://127.0.0.1:6379/15")
KEYWORDS = ["Optimizer", "boosts performance", "ptimiz", "优化", "Craft"]


class InlineExecutor(concurrent.futures.Executor):
    """Runs a submitted call at once, in the caller's thread (the profiler sees it)."""

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> concurrent.futures.Future[Any]:
        future: concurrent.futures.Future[Any] = concurrent.futures.Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as exc:  # noqa: BLE001 - handed to the awaiting coroutine
            future.set_exception(exc)
        return future


class Statements:
    """Counts the statements this thread sends while `on` (a search's count, sent beside the page
    by a counting thread, is left out: whether it lands inside the window is a race)."""

    def __init__(self) -> None:
        self.on, self.seen, self.thread = False, 0, threading.get_ident()
        event.listen(Engine, "before_cursor_execute", self._count)

    def _count(self, *_args: Any) -> None:
        if self.on and threading.get_ident() == self.thread:
            self.seen += 1


def prepare(settings: Settings, resources: int, reuse: bool) -> tuple[Any, Creds]:
    """The seeded database and an application's credentials."""
    platform = None
    if reuse:
        try:
            platform = build_platform(settings)
            with platform.db.session() as s:
                reuse = bool(s.scalar(select(func.count(ResourcePost.id))))
        except Exception:  # noqa: BLE001 - no database yet: seed it
            reuse = False
    if not reuse:
        recreate_database(settings.database_url)
        upgrade(settings.database_url)
        seed_cli(build_platform(settings), resources=resources)
    platform = build_platform(settings)
    with platform.db.session() as s, s.begin():
        app = applications.create(
            s, platform.secrets, name="cold reads", approve=True, per_minute=10**9, per_day=10**9
        )
    return platform, Creds(app.app_id, app.api_key, app.secret_key)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--resources", type=int, default=3000)
    parser.add_argument("--reuse", action="store_true")
    parser.add_argument("--times", type=int, default=200)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument(
        "--timer",
        choices=("cpu", "wall"),
        default="cpu",
        help="the profiler's clock: this process's CPU time (the default: steady on a busy "
        "machine, leaves out the wait for PostgreSQL) or wall time",
    )
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--bodies", type=Path)
    args = parser.parse_args()
    settings = Settings(
        data_dir=Path("/tmp/modhub-bench-cold"),
        database_url=DB_URL,
        redis_url=REDIS_URL,
        encryption_key=Fernet.generate_key().decode(),
        record_cache_seconds=0,
    )
    platform, creds = prepare(settings, args.resources, args.reuse)
    with platform.db.session() as s:
        listed = sorted(s.scalars(select(ResourcePost.id).where(listed_clause())))
    modhub.app.ThreadPoolExecutor = lambda *_a, **_k: InlineExecutor()  # type: ignore[assignment,misc] - profiling only
    app = create_app(settings, db=platform.db, quota=platform.quota)
    asyncio.run(run(app, creds, listed, args))


async def run(app: Any, creds: Creds, listed: list[int], args: argparse.Namespace) -> None:
    rng = random.Random(7)
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:

        async def call(
            method: str, path: str, params: dict | None = None, body: Any = None
        ) -> httpx.Response:
            extra = {"Content-Type": "application/json"} if body is not None else {}
            response = await client.request(
                method,
                path,
                params={k: v for k, v in (params or {}).items() if v is not None},
                content=None if body is None else json.dumps(body),
                headers=creds.headers(method, path, **extra),
            )
            assert response.status_code == 200 and response.json()["code"] == 0, response.text
            return response

        cursors: list[str | None] = [None]
        while len(cursors) < 10:
            page = (await call("GET", "/openapi/v2/mods/sync", {"size": 100, "cursor": cursors[-1]})).json()
            cursors.append(page["data"]["nextCursor"])
        kinds: dict[str, Callable[[int], Any]] = {
            "detail": lambda n: call("GET", f"/openapi/v2/mods/{listed[n % len(listed)]}"),
            "batch(50)": lambda n: call("POST", "/openapi/v2/mods", body={"postIds": rng.sample(listed, 50)}),
            "sync(100)": lambda n: call(
                "GET", "/openapi/v2/mods/sync", {"size": 100, "cursor": cursors[n % len(cursors)]}
            ),
            "search(20)": lambda n: call(
                "GET", "/openapi/v2/mods/search", {"keyword": KEYWORDS[n % len(KEYWORDS)], "pageSize": 20}
            ),
        }
        if args.bodies:
            await write_bodies(call, listed, cursors, args.bodies)
        statements = Statements()
        for name, request in kinds.items():
            await request(0)  # warm: the application snapshot, the prepared operation
            statements.on, statements.seen = True, 0
            await request(1)
            statements.on = False
            print(f"{name:10s} statements per request: {statements.seen}")
        for name, request in kinds.items():
            times = args.times if name in ("detail", "batch(50)") else max(args.times // 4, 20)
            timer = time.process_time if args.timer == "cpu" else time.perf_counter
            profile = cProfile.Profile(timer) if args.profile else None
            started, cpu = time.perf_counter(), time.process_time()
            if profile:
                profile.enable()
            for n in range(times):
                await request(n + 2)
            if profile:
                profile.disable()
            wall = (time.perf_counter() - started) * 1000 / times
            cpu = (time.process_time() - cpu) * 1000 / times
            print(
                f"\n{name}: {times} requests, per request in-process: {wall:.2f} ms, {cpu:.2f} ms of CPU"
                + (f" (under cProfile, {args.timer} time)" if profile else "")
            )
            if profile:
                print(report(profile, times, args.top))


# The request's own work under the framework: the handler, the domain, SQLAlchemy and the driver.
OWN = (
    r"handlers/|models/|modhub/(web|envelope|record_cache)|sqlalchemy/orm/(session|loading|context)"
    r"|sqlalchemy/engine/(base|cursor|result)|psycopg2|json/encoder|display"
)


def report(profile: cProfile.Profile, times: int, top: int) -> str:
    """Functions by cumulative time (the request's own work), then by own time (everything), in
    milliseconds per request."""
    stats = pstats.Stats(profile)
    rows = stats.stats  # type: ignore[attr-defined] - pstats keeps its table there
    lines = []
    for title, key, pattern in (
        ("cumulative, handler and below", 3, re.compile(OWN)),
        ("own time, everything", 2, None),
    ):
        picked = sorted(
            ((fn, row) for fn, row in rows.items() if pattern is None or pattern.search(fn[0])),
            key=lambda item: item[1][key],
            reverse=True,
        )[:top]
        lines.append(f"  {title}: {'cum ms':>8s} {'own ms':>8s} {'calls':>7s}  (per request)")
        for (path, line, name), (_cc, calls, own, cum, _callers) in picked:
            where = path.replace(str(ROOT) + "/", "").replace(str(Path(sys.prefix) / "lib"), "<lib>")
            lines.append(
                f"    {cum * 1000 / times:8.3f} {own * 1000 / times:8.3f} {calls / times:7.1f}  "
                f"{where}:{line}({name})"
            )
    return "\n".join(lines)


TRACE_ID = re.compile(r',"traceId":"[^"]*"}$')


async def write_bodies(call: Callable[..., Any], listed: list[int], cursors: list, path: Path) -> None:
    """The answers to a fixed sample of requests as sent (their traceId left out) and their ETag,
    one line each: compare two runs with cmp."""
    sample = random.Random(11).sample(listed, 100)
    requests: list[tuple[str, str, dict | None, Any]] = [
        ("GET", f"/openapi/v2/mods/{i}", None, None) for i in sample
    ]
    requests += [
        ("POST", "/openapi/v2/mods", None, {"postIds": [*sample[n : n + 49], 10**12]}) for n in (0, 50)
    ]
    requests += [("GET", "/openapi/v2/mods/sync", {"size": 100, "cursor": c}, None) for c in cursors]
    requests += [
        ("GET", "/openapi/v2/mods/search", {"keyword": k, "pageSize": 20, "sort": sort}, None)
        for k in [*KEYWORDS, None]
        for sort in (None, "downloads", "relevance")
    ]
    with path.open("w") as out:
        for method, target, params, body in requests:
            response = await call(method, target, params, body)
            out.write(f"{response.headers.get('ETag')} {TRACE_ID.sub('}', response.text)}\n")


if __name__ == "__main__":
    main()
