"""Compare community search answers with and without the title-first path, over many keywords.

    MODHUB_BENCH_COMMUNITY_URL=... .venv/bin/python bench/search_compare.py [--keywords 320] [--seed 1]

Keywords are drawn from the seeded data (CJK substrings of 2 to 4 characters and Latin words,
phrases and partial words of titles and texts, mixed keywords, repeated words), each searched with
every type filter, with and without a section, on pages 1, 2 and 7 and on the pages around the end
of the title-phrase hits. Each search runs twice in the same transaction: the ranking of every hit
(models.community.search with title_first off) and the answer as served; any difference in the
items (type, id, score, title, snippet, ...) or the total is printed. Read-only (the transaction
is rolled back). Needs migration 0013 applied to the database.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import sys
import time
from pathlib import Path

from cryptography.fernet import Fernet
from sqlalchemy import text

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from models.community import search as community_search  # noqa: E402
from models.search.backends import CJK_RUN  # noqa: E402
from modhub.app import build_platform  # noqa: E402
from modhub.settings import Settings  # noqa: E402

DB_URL = os.environ.get("MODHUB_BENCH_COMMUNITY_URL",
                        "postgresql+psycopg2://postgres@127.0.0.1:5432/modhub_bench_community")
TYPES = [None, "RESOURCE_POST", "DISCUSS_POST", "QUESTION_POST", "QUESTION_ANSWER", "USER_MOMENT"]


def keywords(session, rng: random.Random, n: int) -> list[str]:
    texts = [r[0] for r in session.execute(text(
        "(SELECT title FROM community_post WHERE title <> '' ORDER BY random() LIMIT 400) UNION ALL "
        "(SELECT main_name FROM resource_post ORDER BY random() LIMIT 400) UNION ALL "
        "(SELECT left(content_md, 200) FROM community_answer ORDER BY random() LIMIT 200)"))]
    found: set[str] = {"光影", "服务器", "OptiFine", "Forge crashes", "ptiFin", "整合包 modpack", "教程",
                       "Java", "光光光", "mod mod", "the the", "a", "x", "光", "优化", "机械工艺",
                       "boosts performance"}
    while len(found) < n:
        t = rng.choice(texts) or ""
        runs = [r for r in CJK_RUN.findall(t) if len(r) >= 2]
        words = re.findall(r"[A-Za-z][A-Za-z0-9]+", t)
        pick = rng.random()
        if pick < 0.35 and runs:
            run = rng.choice(runs)
            size = min(len(run), rng.choice((2, 2, 3, 4)))
            at = rng.randrange(len(run) - size + 1)
            found.add(run[at:at + size])
        elif pick < 0.6 and words:
            found.add(rng.choice(words))
        elif pick < 0.75 and len(words) >= 2:
            at = rng.randrange(len(words) - 1)
            found.add(f"{words[at]} {words[at + 1]}")
        elif pick < 0.85 and words:
            w = rng.choice(words)
            if len(w) >= 4:
                at = rng.randrange(len(w) - 2)
                found.add(w[at:at + rng.choice((3, 4))])
        elif runs and words:
            found.add(f"{rng.choice(runs)[:2]} {rng.choice(words)}")
    return sorted(found)


def answer(session, settings, keyword, entity_type, section, page_num, page_size, *, title_first: bool):
    community_search.title_first = community_search_title_first if title_first else (lambda keyword: False)
    community_search._ranked.cache_clear()
    return community_search.search(session, keyword=keyword, entity_type=entity_type, section_code=section,
                                   page_num=page_num, page_size=page_size, settings=settings)


community_search_title_first = community_search.title_first


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keywords", type=int, default=320)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    settings = Settings(data_dir=Path("/tmp/modhub-search-compare"), database_url=DB_URL,
                        redis_url="redis://127.0.0.1:6379/13", encryption_key=Fernet.generate_key().decode())
    platform = build_platform(settings)
    compared = differ = titled_paths = 0
    started = time.perf_counter()
    with platform.db.session() as session:
        session.begin()
        sections = [r[0] for r in session.execute(text(
            "SELECT section_code FROM community_post GROUP BY 1 ORDER BY count(*) DESC LIMIT 2"))]
        words = keywords(session, rng, args.keywords)
        print(f"{len(words)} keywords; sections {sections}")
        for keyword in words:
            combos = [(t, s) for t in TYPES for s in (None, *sections[:1])]
            for entity_type, section in [(None, None), *rng.sample(combos, 4)]:
                full = answer(session, settings, keyword, entity_type, section, 1, 20, title_first=False)
                total = full["total"]
                community_search.title_first = community_search_title_first
                community_search._ranked.cache_clear()
                titled = community_search._ranked(True, keyword, entity_type, section)
                pages = {1, 2, 7}
                if titled is not None:  # the pages around the end of the title-phrase hits
                    n = len(session.connection().execute(titled.titled.limit(2000)).all()) if titled.titled \
                        is not None else 0
                    titled_paths += titled.titled is not None
                    pages |= {max(n // 20, 1), n // 20 + 1, n // 20 + 2, total // 20 + 1, total // 20 + 2}
                for page in sorted(p for p in pages if (p - 1) * 20 < 10000):
                    for size in ((20, 7) if page <= 2 else (20,)):
                        search = (session, settings, keyword, entity_type, section, page, size)
                        old, new = answer(*search, title_first=False), answer(*search, title_first=True)
                        compared += 1
                        if old != new:
                            differ += 1
                            print("DIFFERENT", repr(keyword), entity_type, section, page, size,
                                  old["total"], new["total"],
                                  [(i["entityType"], i["entityId"], i["score"]) for i in old["list"]][:5],
                                  [(i["entityType"], i["entityId"], i["score"]) for i in new["list"]][:5])
        session.rollback()
    print(f"compared {compared} pages ({titled_paths} searches on the title-first path) in "
          f"{time.perf_counter() - started:.0f} s: {differ} different")
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
