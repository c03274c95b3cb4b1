"""The framework floors in one run: bare Starlette, an empty Connexion AsyncApp operation and an
empty Connexion FlaskApp operation (bench/floor_app.py), each under uvicorn, driven in turn by wrk
for the same time. Prints requests/s, p50/p99 and each floor's ratio to the bare one.

    .venv/bin/python bench/floors.py [--seconds 10] [--connections 16] [--workers 1] [--rounds 1]
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.gateway import wrk_url  # noqa: E402
from bench.servers import start, stop, wait_serving  # noqa: E402

FLOORS = {
    "bare Starlette (fixed envelope-sized JSON)": "bench.floor_app:bare",
    "empty Connexion AsyncApp operation": "bench.floor_app:async_app",
    "empty Connexion FlaskApp operation": "bench.floor_app:app",
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--port", type=int, default=19150)
    args = parser.parse_args()
    results: dict[str, list[dict]] = {name: [] for name in FLOORS}
    for _ in range(args.rounds):
        for name, target in FLOORS.items():
            cmd = [sys.executable, "-m", "uvicorn", target, "--port", str(args.port)]
            cmd += ["--workers", str(args.workers), "--no-access-log", "--log-level", "warning"]
            proc = wait_serving(args.port, start(cmd, name=name))
            url = f"http://127.0.0.1:{args.port}/mods/1"
            try:
                wrk_url(url, {}, 2, args.connections)  # warm-up
                r = wrk_url(url, {}, args.seconds, args.connections)
            finally:
                stop(proc)
            results[name].append(r)
            print(
                f"{name:45s} {r['rps']:8.0f} req/s  p50 {r['p50']:6.2f} ms  p99 {r['p99']:6.2f} ms",
                flush=True,
            )
    bare = statistics.median(r["rps"] for r in results[next(iter(FLOORS))])
    for name, runs in results.items():
        rps = statistics.median(r["rps"] for r in runs)
        print(f"median {name:45s} {rps:8.0f} req/s  x bare {rps / bare:.3f}")


if __name__ == "__main__":
    main()
