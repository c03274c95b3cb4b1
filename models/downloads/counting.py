"""Download counting: one count per file per client (proxy user, else address) per 10 minutes.

On the download path a count costs one Redis round trip (one Lua script: SET NX EX on the
dedup key, and on success HINCRBY of the pending hash). `flush` moves the pending counts into
resource_file.download_count, resource_post.download_count and the daily statistics in batches
(the worker's sweep and `modhub downloads flush` call it). Without Redis (embedded mode) the
same rules hold in-process.
"""

from __future__ import annotations

import datetime as dt
import threading
import time
import uuid
from collections import defaultdict
from collections.abc import Callable
from typing import Protocol

import redis
from sqlalchemy import select, update
from sqlalchemy.orm import Session

from models.catalog.tables import DailyStat, ResourceFile, ResourcePost
from modhub.core.redis_store import RedisStore

DEDUP_SECONDS = 600
BATCH = 500

_COUNT = """
if redis.call('SET', KEYS[1], '1', 'NX', 'EX', ARGV[1]) then
  redis.call('HINCRBY', KEYS[2], ARGV[2], 1)
  return 1
end
return 0
"""
_TAKE = """
if redis.call('EXISTS', KEYS[1]) == 0 then return {} end
redis.call('RENAME', KEYS[1], KEYS[2])
local all = redis.call('HGETALL', KEYS[2])
redis.call('DEL', KEYS[2])
return all
"""


class Counter(Protocol):
    """A download counter: RedisCounter (shared by every process) or LocalCounter (embedded)."""

    def hit(self, *, post_id: int, file_id: int, client_key: str, day: dt.date) -> bool: ...

    def take(self) -> dict[str, int]: ...

    def give_back(self, counts: dict[str, int]) -> None: ...


class Sessions(Protocol):
    """Where flush opens its transactions (modhub.db.Database)."""

    def session(self) -> Session: ...


def _field(post_id: int, file_id: int, day: dt.date) -> str:
    return f"{post_id}:{file_id}:{day.isoformat()}"


class RedisCounter:
    """Counts shared by every process, in the quota's Redis."""

    def __init__(self, client: redis.Redis, prefix: str) -> None:
        self.client, self.prefix = client, f"{prefix}:dl"
        self._count = client.register_script(_COUNT)
        self._take = client.register_script(_TAKE)

    def hit(self, *, post_id: int, file_id: int, client_key: str, day: dt.date) -> bool:
        """Count a download unless this client fetched this file in the last 10 minutes."""
        keys = [f"{self.prefix}:seen:{file_id}:{client_key}", f"{self.prefix}:pending"]
        try:
            return bool(self._count(keys=keys, args=[DEDUP_SECONDS, _field(post_id, file_id, day)]))
        except redis.RedisError:
            return False  # a lost count must never fail a download

    def take(self) -> dict[str, int]:
        """The pending counts, removed atomically."""
        raw = self._take(keys=[f"{self.prefix}:pending", f"{self.prefix}:taking:{uuid.uuid4().hex}"])
        pairs = [x.decode() if isinstance(x, bytes) else x for x in raw]
        return {pairs[i]: int(pairs[i + 1]) for i in range(0, len(pairs), 2)}

    def give_back(self, counts: dict[str, int]) -> None:
        """Put counts that could not be written back into the pending hash."""
        pipe = self.client.pipeline(transaction=True)
        for name, n in counts.items():
            pipe.hincrby(f"{self.prefix}:pending", name, n)
        pipe.execute()


class LocalCounter:
    """In-process counts of the embedded mode (no Redis)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.lock, self.clock = threading.Lock(), clock
        self.seen: dict[tuple[int, str], float] = {}
        self.pending: dict[str, int] = defaultdict(int)

    def hit(self, *, post_id: int, file_id: int, client_key: str, day: dt.date) -> bool:
        """Count a download unless this client fetched this file in the last 10 minutes."""
        now = self.clock()
        with self.lock:
            if len(self.seen) > 100_000:
                self.seen = {k: v for k, v in self.seen.items() if v > now}
            if self.seen.get((file_id, client_key), 0) > now:
                return False
            self.seen[(file_id, client_key)] = now + DEDUP_SECONDS
            self.pending[_field(post_id, file_id, day)] += 1
            return True

    def take(self) -> dict[str, int]:
        """The pending counts, removed."""
        with self.lock:
            taken, self.pending = dict(self.pending), defaultdict(int)
        return taken

    def give_back(self, counts: dict[str, int]) -> None:
        """Put counts that could not be written back."""
        with self.lock:
            for name, n in counts.items():
                self.pending[name] += n


def counter_over(store: RedisStore | None) -> RedisCounter | LocalCounter:
    """The download counter of a platform: in its Redis (under its key prefix) when it has one,
    else in process (the platform builds one and keeps it)."""
    return RedisCounter(store.client, store.prefix) if store is not None else LocalCounter()


def client_key(user_id: int | None, address: str | None) -> str:
    """Who downloads: the proxy user when known, else the caller's address."""
    return f"u{user_id}" if user_id else f"a{address or '-'}"


def apply(session: Session, counts: dict[str, int]) -> int:
    """Add counts {"post:file:day": n} to the files, the resources and the daily statistics."""
    by_file: defaultdict[int, int] = defaultdict(int)
    by_post: defaultdict[int, int] = defaultdict(int)
    by_day: defaultdict[tuple[int, dt.date], int] = defaultdict(int)
    for name, n in counts.items():
        post, file, day_text = name.split(":")
        by_file[int(file)] += n
        by_post[int(post)] += n
        by_day[(int(post), dt.date.fromisoformat(day_text))] += n
    for file_id, n in by_file.items():
        session.execute(
            update(ResourceFile)
            .where(ResourceFile.id == file_id)
            .values(download_count=ResourceFile.download_count + n)
        )
    for post_id, n in by_post.items():
        session.execute(
            update(ResourcePost)
            .where(ResourcePost.id == post_id)
            .values(download_count=ResourcePost.download_count + n)
        )
    posts = {p for p, _ in by_day}
    existing = {
        (s.post_id, s.day): s
        for s in session.scalars(
            select(DailyStat).where(DailyStat.post_id.in_(posts), DailyStat.day.in_({d for _, d in by_day}))
        )
    }
    for (post_id, day), n in by_day.items():
        row = existing.get((post_id, day))
        if row is None:
            session.add(DailyStat(post_id=post_id, day=day, downloads=n))
        else:
            row.downloads += n
    session.flush()
    return sum(counts.values())


def flush(db: Sessions, counter: Counter, *, log: Callable[[str], None] | None = None) -> int:
    """Move all pending counts into the database, BATCH fields per transaction; counts of a
    failed batch go back to the counter. Returns the downloads written."""
    counts = counter.take()
    names, written = sorted(counts), 0
    for i in range(0, len(names), BATCH):
        batch = {n: counts[n] for n in names[i : i + BATCH]}
        try:
            with db.session() as session, session.begin():
                written += apply(session, batch)
        except Exception:
            counter.give_back({n: counts[n] for n in names[i:]})
            raise
        if log:
            log(f"flushed {written} downloads ({min(i + BATCH, len(names))}/{len(names)} counters)")
    return written
