"""Signed GET through the full stack against a bare Flask app doing the same work.

Both servers run one worker process on loopback over the same PostgreSQL and Redis; wrk drives
each in turn for the same duration. Prints requests/s, p50/p99 latency and the ratio.

    .venv/bin/python bench/gateway.py [--seconds 15] [--connections 16]
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import time
from pathlib import Path

from cryptography.fernet import Fernet

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.servers import start, stop, wait_serving  # noqa: E402
from models.identity import applications  # noqa: E402
from models.identity.tables import User  # noqa: E402
from modhub.app import build_platform  # noqa: E402
from modhub.migrate import upgrade  # noqa: E402
from modhub.settings import from_env  # noqa: E402
from tests.support import recreate_database, sign  # noqa: E402

DB_URL = os.environ.get(
    "MODHUB_BENCH_DATABASE_URL", "postgresql+psycopg2://postgres@127.0.0.1:5432/modhub_bench"
)
PATH = "/openapi/v1/user/profile"


def prepare(env: dict) -> tuple[str, str, int]:
    """A fresh database with one unlimited application and one user."""
    recreate_database(DB_URL)
    upgrade(DB_URL)
    os.environ.update(env)
    platform = build_platform(from_env())
    with platform.db.session() as s, s.begin():
        creds = applications.create(
            s,
            platform.secrets,
            name="bench",
            permissions=["user:proxy"],
            approve=True,
            per_minute=10**9,
            per_day=10**9,
        )
        user = User(username="bench", login_name="bench")
        s.add(user)
        s.flush()
        return creds.api_key, creds.secret_key, user.id


def serve(cmd: list[str], port: int, env: dict) -> subprocess.Popen:
    return wait_serving(port, start(cmd, env=env, name="gateway"))


def wrk(port: int, headers: dict, seconds: int, connections: int) -> dict:
    return wrk_url(f"http://127.0.0.1:{port}{PATH}", headers, seconds, connections)


def wrk_url(url: str, headers: dict, seconds: int, connections: int) -> dict:
    """wrk -t2 against url: requests/s, p50 and p99 in ms (refuses a run with non-2xx answers)."""
    args = ["wrk", "-t2", f"-c{connections}", f"-d{seconds}s", "--latency"]
    for k, v in headers.items():
        args += ["-H", f"{k}: {v}"]
    out = subprocess.run(args + [url], capture_output=True, text=True, check=True).stdout
    if "Non-2xx" in out:
        raise SystemExit("non-2xx answers during the run:\n" + out)

    def ms(label):
        value, unit = re.search(rf"^\s+{label}\s+([\d.]+)(us|ms|s)", out, re.M).groups()
        return float(value) * {"us": 0.001, "ms": 1, "s": 1000}[unit]

    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    return {"rps": rps, "p50": ms("50%"), "p99": ms("99%")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=15)
    parser.add_argument("--connections", type=int, default=16)
    args = parser.parse_args()
    env = {
        "MODHUB_DATABASE_URL": DB_URL,
        "MODHUB_REDIS_URL": os.environ.get("MODHUB_BENCH_REDIS_URL", "redis://127.0.0.1:6379/15"),
        "MODHUB_ENCRYPTION_KEY": Fernet.generate_key().decode(),
        "MODHUB_DATA_DIR": "/tmp/mb",
    }
    api_key, secret, user_id = prepare(env)
    ts = str(int(time.time() * 1000))
    headers = {
        "X-API-Key": api_key,
        "X-Timestamp": ts,
        "X-Proxy-User-Id": str(user_id),
        "X-Signature": sign(secret, "GET", PATH, ts),
    }
    py = sys.executable
    servers = {
        "full stack (uvicorn, Connexion AsyncApp)": (
            [
                py,
                "-m",
                "uvicorn",
                "--factory",
                "modhub.asgi:create",
                "--port",
                "18081",
                "--workers",
                "1",
                "--no-access-log",
                "--log-level",
                "warning",
            ],
            18081,
        ),
        "bare Flask (gunicorn gthread)": (
            [
                py,
                "-m",
                "gunicorn",
                "-w",
                "1",
                "-k",
                "gthread",
                "--threads",
                "8",
                "-b",
                "127.0.0.1:18082",
                "bench.bare_app:app",
            ],
            18082,
        ),
    }
    results = {}
    for name, (cmd, port) in servers.items():
        proc = serve(cmd, port, env)
        try:
            wrk(port, headers, 2, args.connections)  # warm-up
            results[name] = wrk(port, headers, args.seconds, args.connections)
        finally:
            stop(proc)
        r = results[name]
        print(f"{name:45s} {r['rps']:8.0f} req/s  p50 {r['p50']:6.2f} ms  p99 {r['p99']:6.2f} ms")
    full, bare = results.values()
    print(f"ratio full/bare throughput: {full['rps'] / bare['rps']:.2f} (target >= 0.60)")


if __name__ == "__main__":
    main()
