"""Compare the windowed keyword ranking by relevance tiers with ranking every match, on a seeded catalogue.

    MODHUB_BENCH_CATALOG_URL=... .venv/bin/python bench/catalog_search_compare.py [--keywords 320] [--seed 1]

Keywords are drawn from the seeded catalogue (CJK substrings of 2 to 4 characters, Latin words,
word pairs and partial words of titles and introductions, mixed keywords); each is ranked by
relevance without and with a filter (a section, a type), in both directions, on several pages,
once by models.search.tiers.ranked_ids (what a keyword search by relevance runs: the newest
documents first, the indexes past them) and once by one plain query that ranks every match by
tier and postId. Any difference in the page's post ids, or in the match count
(tier_count.count_matches), is printed. Read-only.
"""

from __future__ import annotations

import argparse
import itertools
import os
import random
import re
import sys
import time
from pathlib import Path

from sqlalchemy import create_engine, text
from sqlalchemy.orm import Session

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from models.search import tier_count, tiers  # noqa: E402
from models.search.backends import CJK_RUN  # noqa: E402
from models.search.filters import doc_filters  # noqa: E402

DB_URL = os.environ.get(
    "MODHUB_BENCH_CATALOG_URL", "postgresql+psycopg2://postgres@127.0.0.1:5432/modhub_bench_catalog"
)


def keywords(session: Session, rng: random.Random, n: int) -> list[str]:
    texts = [
        r[0] or ""
        for r in session.execute(
            text(
                "(SELECT main_name FROM resource_post ORDER BY random() LIMIT 500) UNION ALL "
                "(SELECT left(introduction, 200) FROM resource_post ORDER BY random() LIMIT 300)"
            )
        )
    ]
    found = {
        "Optimizer",
        "boosts performance",
        "ptimiz",
        "优化",
        "机械工艺",
        "Craft",
        "a",
        "x",
        "优",
        "%",
        "mod mod",
    }
    while len(found) < n:
        t = rng.choice(texts)
        runs = [r for r in CJK_RUN.findall(t) if len(r) >= 2]
        words = re.findall(r"[A-Za-z][A-Za-z0-9]+", t)
        pick = rng.random()
        if pick < 0.35 and runs:
            run = rng.choice(runs)
            size = min(len(run), rng.choice((2, 2, 3, 4)))
            at = rng.randrange(len(run) - size + 1)
            found.add(run[at : at + size])
        elif pick < 0.6 and words:
            found.add(rng.choice(words))
        elif pick < 0.75 and len(words) >= 2:
            at = rng.randrange(len(words) - 1)
            found.add(f"{words[at]} {words[at + 1]}")
        elif pick < 0.85 and words:
            w = rng.choice(words)
            if len(w) >= 4:
                at = rng.randrange(len(w) - 2)
                found.add(w[at : at + rng.choice((3, 4))])
        elif runs and words:
            found.add(f"{rng.choice(runs)[:2]} {rng.choice(words)}")
    return sorted(found)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keywords", type=int, default=320)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    engine = create_engine(DB_URL)
    compared = differ = 0
    started = time.perf_counter()
    with Session(engine) as session:
        sections = [
            r[0]
            for r in session.execute(
                text("SELECT section_code FROM resource_search_doc GROUP BY 1 ORDER BY count(*) DESC LIMIT 2")
            )
        ]
        words = keywords(session, rng, args.keywords)
        print(f"{len(words)} keywords; sections {sections}")
        filters = [
            doc_filters(),
            *(doc_filters(section_code=c) for c in sections),
            doc_filters(resource_type="mod"),
        ]
        for keyword, where in itertools.product(words, filters):
            for order in ("desc", "asc"):
                every = tiers.every_match(session, keyword, where, order)
                for offset, size in ((0, 20), (40, 20), (2000, 50)) if order == "desc" else ((0, 20),):
                    page, total = tiers.ranked_ids(
                        session, keyword, where, order, offset=offset, page_size=size
                    )
                    if total is None:
                        statement, params = tier_count.count_matches(keyword, where, 10**9)
                        total = statement.rows(session, params)[0][0]
                    compared += 1
                    if page != every[offset : offset + size] or total != len(every):
                        differ += 1
                        print(
                            "DIFFERENT",
                            repr(keyword),
                            where,
                            order,
                            offset,
                            total,
                            len(every),
                            page[:5],
                            every[offset : offset + 5],
                        )
        session.rollback()
    print(f"compared {compared} pages in {time.perf_counter() - started:.0f} s: {differ} different")
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
