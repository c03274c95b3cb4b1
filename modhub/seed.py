"""`modhub demo seed`: a realistic, deterministic demo catalogue, written with bulk inserts.

Same resource count -> same rows (one seeded random.Random); dates are relative to the day of
seeding so that the last-24h/7d/30d statistics have data. Everything is written in the caller's
transaction, so a failed seed leaves nothing behind.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import random
import sys

from sqlalchemy import exists, select, text
from sqlalchemy.orm import Session
from tqdm import tqdm

from models.base import Base
from models.catalog.queries import forget
from models.catalog.tables import (
    Category,
    DailyStat,
    Rating,
    ResourceAuthor,
    ResourceFile,
    ResourceLink,
    ResourcePost,
    ResourceRelation,
    ResourceVersion,
    RunPlatform,
    Section,
    ServerPost,
    Tag,
)
from models.community.tables import Comment
from models.identity.tables import User
from modhub import seed_data as V
from modhub import seed_rows as R
from modhub.seed_bulk import BulkWriter, deferred_indexes
from modhub.seed_community import seed_community
from modhub.seed_parts import FileStore, server_rows

CHUNK = 1000
SEED = 20261121


class SeedRefused(RuntimeError):
    """The database already holds a catalogue; seeding would mix demo data into it."""


def catalogue_is_empty(session: Session) -> bool:
    """True when there is no section and no resource post yet."""
    return not session.scalar(select(exists().where(Section.id.is_not(None)))) and not session.scalar(
        select(exists().where(ResourcePost.id.is_not(None)))
    )


def seed(
    session: Session, *, resources: int, today: dt.date | None = None, progress: bool = False, storage=None
) -> dict:
    """Fill an empty catalogue with `resources` posts and everything around them; counts by table.

    With a storage, the bytes of the on-site demo files are put into it while the rows are being
    written (one background thread: file writes overlap the database's work).
    """
    if not catalogue_is_empty(session):
        raise SeedRefused("the catalogue is not empty: demo seed only fills an empty database")
    today = today or dt.datetime.now(dt.UTC).date()
    now = dt.datetime.combine(today, dt.time(12), dt.UTC)
    rng = random.Random(SEED)
    bulk = BulkWriter(session)
    bulk.write(Section, R.section_rows())
    bulk.write(RunPlatform, R.platform_rows())
    bulk.write(Category, R.category_rows())
    bulk.write(Tag, R.tag_rows())
    users = R.user_rows(rng, max(30, resources // 15), now)
    user_ids = bulk.with_ids(User, users)
    bulk.write(User, users)
    files = FileStore(storage) if storage is not None else None
    writer = _PostWriter(bulk, rng, now, user_ids, files)
    # the file puts go on while the indexes are built; both end before the transaction does
    with (
        contextlib.closing(files) if files else contextlib.nullcontext(),
        deferred_indexes(session, GIN_TABLES),
    ):
        with tqdm(total=resources, file=sys.stderr, disable=not progress, unit="post") as bar:
            for start in range(0, resources, CHUNK):
                size = min(CHUNK, resources - start)
                writer.write_chunk(size)
                bar.update(size)
        bulk.write(ServerPost, server_rows(rng, now, user_ids, max(5, resources // 50)))
        community = seed_community(bulk, resources=resources, user_ids=user_ids, now=now, progress=progress)
    return {**writer.counts, **community}


# Tables the seed fills from empty whose GIN indexes are built once at its end (PostgreSQL); the
# search documents of migration 0012 are filled by triggers as the rows arrive.
GIN_TABLES = [
    "resource_post",
    "community_post",
    "community_answer",
    "community_moment",
    "resource_search_doc",
    "community_search_doc",
]


def seed_cli(platform, *, resources: int, only_if_empty: bool = False) -> dict | None:
    """Seed through the platform's database in one transaction (None when skipped as non-empty).
    An administrator's command, not a request: on PostgreSQL its transactions run without
    MODHUB_DB_STATEMENT_TIMEOUT_SECONDS (one COPY of a chunk of a million-resource seed, with its
    foreign-key checks, can take longer on a small machine)."""
    with platform.db.session() as session, session.begin():
        _unbounded(session)
        if only_if_empty and not catalogue_is_empty(session):
            return None
        counts = seed(session, resources=resources, progress=True, storage=platform.storage)
    with platform.db.session() as session, session.begin():
        _unbounded(session)
        forget(session)
        if session.get_bind().dialect.name == "postgresql":
            session.execute(text("ANALYZE"))  # planner statistics for the freshly filled tables
    return counts


def _unbounded(session) -> None:
    """No statement time-out for the rest of this transaction (PostgreSQL)."""
    if session.get_bind().dialect.name == "postgresql":
        session.execute(text("SET LOCAL statement_timeout = 0"))


class _PostWriter:
    """Writes posts chunk by chunk; counters are computed from the parts before the post row."""

    def __init__(
        self,
        bulk: BulkWriter,
        rng: random.Random,
        now: dt.datetime,
        user_ids: list[int],
        files: FileStore | None = None,
    ):
        self.bulk, self.rng, self.now, self.users, self.files = bulk, rng, now, user_ids, files
        self.tax = R.Taxonomy.build()
        self.post_ids: list[int] = []
        self.counts: dict[str, int] = {}

    def write_chunk(self, size: int) -> None:
        """Build and insert `size` posts with their authors, files, comments, ratings and stats."""
        rng = self.rng
        posts = [R.post_row(rng, self.tax, self.now, len(self.users)) for _ in range(size)]
        extras = [self._counted_parts(p) for p in posts]
        for p in posts:
            p["user_id"] = self.users[p["user_id"] - 1]
        self.post_ids += self.bulk.with_ids(ResourcePost, posts)
        game_versions = [p.pop("game_versions") for p in posts]
        self.bulk.write(ResourcePost, posts)
        for p, versions in zip(posts, game_versions, strict=True):
            p["game_versions"] = versions
        self._parts(posts, extras)

    def _counted_parts(self, post: dict) -> dict:
        rng = self.rng
        raters = rng.sample(self.users, k=min(len(self.users), int(rng.expovariate(1 / 4))))
        ratings = [
            {
                "user_id": u,
                "score": rng.choices([1, 2, 3, 4, 5], [1, 1, 3, 6, 9])[0],
                "create_time": post["publish_time"] + rng.uniform(0, 30) * R.DAY,
            }
            for u in raters
        ]
        popular = rng.random() < 0.2
        stats = R.daily_rows(rng, 0, self.now.date(), popular)
        threads = [self._thread(post) for _ in range(int(rng.expovariate(1 / 3)))]
        post["rating_count"] = len(ratings)
        post["rating_total"] = sum(r["score"] for r in ratings)
        post["views_count"] = rng.randint(0, 20000) + sum(s["views"] for s in stats)
        post["download_count"] = rng.randint(0, 8000) + sum(s["downloads"] for s in stats)
        post["collection_count"] = rng.randint(0, 500) + sum(s["collects"] for s in stats)
        post["like_count"] = rng.randint(0, 900 if popular else 120)
        post["comment_count"] = sum(_visible(top) + sum(map(_visible, replies)) for top, replies in threads)
        return {"ratings": ratings, "stats": stats, "threads": threads}

    def _thread(self, post: dict) -> tuple[dict, list[dict]]:
        rng = self.rng

        def comment(after: dt.datetime) -> dict:
            roll = rng.random()
            return {
                "entity_type": "RESOURCE_POST",
                "user_id": rng.choice(self.users),
                "content": R.comment_text(rng),
                "like_count": rng.randint(0, 50),
                "status": "NORMAL" if roll > 0.06 else rng.choice(["PENDING", "HIDDEN"]),
                "is_delete": 0.03 < roll < 0.08,
                "create_time": min(self.now, after + rng.uniform(0, 60) * R.DAY),
            }

        top = comment(post["publish_time"])
        replies = [comment(top["create_time"]) for _ in range(int(rng.expovariate(1 / 1.2)))]
        top["reply_count"] = sum(map(_visible, replies))
        return top, replies

    def _parts(self, posts: list[dict], extras: list[dict]) -> None:
        rows: dict[type[Base], list[dict]] = {
            m: []
            for m in (
                ResourceAuthor,
                ResourceLink,
                ResourceRelation,
                ResourceVersion,
                ResourceFile,
                Rating,
                DailyStat,
            )
        }
        tops, replies = [], []
        for post, extra in zip(posts, extras, strict=True):
            pid = post["id"]
            rows[ResourceAuthor] += self._authors(post)
            rows[ResourceLink] += self._links(post)
            rows[ResourceRelation] += self._relations(pid)
            rows[ResourceVersion] += self._versions(post)
            files = [R.file_row(self.rng, post, i) for i in range(self.rng.randint(1, 3))]
            rows[ResourceFile] += files
            if self.files is not None:
                for f in files:
                    if f["storage_type"] == "DIRECT_UPLOAD" and f["object_key"] is not None:
                        self.files.add(f["file_name"], f["file_size"])
            rows[Rating] += [{**r, "post_id": pid} for r in extra["ratings"]]
            rows[DailyStat] += [{**s, "post_id": pid} for s in extra["stats"]]
            for top, kids in extra["threads"]:
                tops.append({**top, "entity_id": pid})
                replies.append([{**k, "entity_id": pid} for k in kids])
        for model, batch in rows.items():
            self.bulk.write(model, batch)
            self._count(model.__tablename__, len(batch))
        top_ids = self.bulk.with_ids(Comment, tops)
        self.bulk.write(Comment, tops)
        flat = [{**k, "parent_id": cid} for cid, kids in zip(top_ids, replies, strict=True) for k in kids]
        self.bulk.write(Comment, flat)
        self._count("comment", len(tops) + len(flat))
        self._count("resource_post", len(posts))

    def _count(self, table: str, n: int) -> None:
        self.counts[table] = self.counts.get(table, 0) + n

    def _authors(self, post: dict) -> list[dict]:
        others = self.rng.sample(self.users, k=self.rng.choice([0, 0, 0, 1, 2]))
        people = [post["user_id"]] + [u for u in others if u != post["user_id"]]
        roles = ["OWNER"] + [self.rng.choice(["COLLABORATOR", "CONTRIBUTOR"]) for _ in people[1:]]
        return [
            {"post_id": post["id"], "user_id": u, "role": r, "sort_order": i}
            for i, (u, r) in enumerate(zip(people, roles, strict=True))
        ]

    def _links(self, post: dict) -> list[dict]:
        kinds = self.rng.sample(V.LINK_TYPES, k=self.rng.randint(0, 3))
        return [
            {
                "post_id": post["id"],
                "link_type": k,
                "sort_order": i,
                "label": None,
                "url": f"https://{k.lower().replace('_', '-')}.example.org/{post['abbr_name'].lower()}",
            }
            for i, k in enumerate(kinds)
        ]

    def _relations(self, pid: int) -> list[dict]:
        if len(self.post_ids) < 2:
            return []
        # an earlier post: rng.choice(post_ids[:-1]) without copying the list per call (that copy
        # made the seed quadratic: 230 posts/s at 800,000); same draws, so the same rows
        earlier = len(self.post_ids) - 1
        targets = {
            self.post_ids[self.rng.randrange(earlier)] for _ in range(int(self.rng.expovariate(1 / 0.8)))
        }
        rows = []
        for i, target in enumerate(sorted(targets - {pid})):
            kind = self.rng.choice(V.RELATION_TYPES)
            rows.append(
                {
                    "post_id": pid,
                    "relation_type": kind,
                    "target_post_id": target,
                    "is_required": kind == "DEPENDENCY" and self.rng.random() < 0.7,
                    "sort_order": i,
                    "data_source": self.rng.choice(
                        ["USER_DEFINED", "USER_DEFINED", "UPSTREAM_SYNC", "AUTO_DETECTED"]
                    ),
                }
            )
        return rows

    def _versions(self, post: dict) -> list[dict]:
        # Each version row points at the post itself: the demo keeps one post row per chain.
        count = self.rng.randint(1, 4)
        span = (post["update_time"] - post["publish_time"]) / count
        return [
            {
                "post_id": post["id"],
                "version_post_id": post["id"],
                "version_number": n,
                "resource_version": f"{post['resource_version']}-{n}"
                if n < count
                else post["resource_version"],
                "update_commit": self.rng.choice([None, "修复崩溃 Fixed a crash", "新增内容 New content"]),
                "approved": n < count or self.rng.random() < 0.9,
                "publish_time": post["publish_time"] + span * (n - 1),
            }
            for n in range(1, count + 1)
        ]


def _visible(comment: dict) -> int:
    return int(comment["status"] == "NORMAL" and not comment["is_delete"])
