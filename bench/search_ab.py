"""In-process A/B of the community search: the full ranking (title_first off) against the answer
as served, alternated request by request over bench/community.py's searches.

    MODHUB_BENCH_COMMUNITY_URL=... .venv/bin/python bench/search_ab.py [--rounds 100]

Each round runs every search once each way, in one transaction per search as the server does, so
both sides see the same machine load; p50 / p95 / min milliseconds of each side and their ratio.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

from cryptography.fernet import Fernet

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.catalog import pct  # noqa: E402
from bench.community import SEARCHES  # noqa: E402
from models.community import search as community_search  # noqa: E402
from modhub.app import build_platform  # noqa: E402
from modhub.settings import Settings  # noqa: E402

DB_URL = os.environ.get("MODHUB_BENCH_COMMUNITY_URL",
                        "postgresql+psycopg2://postgres@127.0.0.1:5432/modhub_bench_community")
TITLE_FIRST = community_search.title_first


def run(platform, settings, params: dict, title_first: bool) -> float:
    community_search.title_first = TITLE_FIRST if title_first else (lambda keyword: False)
    community_search._ranked.cache_clear()
    community_search._ranked(True, params["keyword"], params.get("entityType"), params.get("sectionCode"))
    started = time.perf_counter()
    with platform.db.session() as session, session.begin():
        community_search.search(session, keyword=params["keyword"], entity_type=params.get("entityType"),
                                section_code=params.get("sectionCode"), page_num=params.get("pageNum", 1),
                                page_size=20, settings=settings)
    return (time.perf_counter() - started) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=100)
    args = parser.parse_args()
    settings = Settings(data_dir=Path("/tmp/modhub-search-ab"), database_url=DB_URL,
                        redis_url="redis://127.0.0.1:6379/13", encryption_key=Fernet.generate_key().decode())
    platform = build_platform(settings)
    times = {(name, side): [] for name, _ in SEARCHES for side in (False, True)}
    for i in range(args.rounds + 3):
        for name, params in SEARCHES:
            for side in ((False, True) if i % 2 else (True, False)):
                elapsed = run(platform, settings, params, side)
                if i >= 3:
                    times[(name, side)].append(elapsed)
    print(f"{'search':36s} {'full p50':>9s} {'p95':>7s} {'min':>6s}   {'served p50':>10s} {'p95':>7s} "
          f"{'min':>6s}   p50 ratio")
    for name, _ in SEARCHES:
        a, b = times[(name, False)], times[(name, True)]
        print(f"{name:36s} {pct(a, 50):9.2f} {pct(a, 95):7.2f} {min(a):6.2f}   {pct(b, 50):10.2f} "
              f"{pct(b, 95):7.2f} {min(b):6.2f}   {pct(b, 50) / pct(a, 50):.2f}")


if __name__ == "__main__":
    main()
