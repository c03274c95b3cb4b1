"""The record cache: catalogue records kept per process between requests, and their invalidation.

What is kept: ModDetailVO ("detail") and ModSummaryVO ("summary") by post id, as their JSON text
(serialized once, when read); absent ids too (as the text "null"). A record is served from here
only while both hold:
  - the catalogue generation it was read under is still the current one. The generation is a
    counter moved after the commit of every content change of a resource post (`catalog_changed`,
    marked by models.webhooks.events for the resource.* events and by the lifecycle), so an
    update, a deletion or a visibility change is seen by the next request on every process;
  - it is younger than the time limit (MODHUB_RECORD_CACHE_SECONDS, 30 s by default): the
    counters and statistics inside a record (downloads, likes, comments, ratings, the 24 h / 7 d
    / 30 d stats) move without a content change and may lag that long.
0 seconds turns the cache off.

Where the generation lives:
  - with Redis: the key `{prefix}:catalog:generation` (`RedisGeneration`), incremented after the
    commit; a signed request reads it in the quota's own round trip (modhub.quota), so it costs
    no round trip of its own;
  - without Redis: the one row of the `catalog_generation` table, incremented inside the very
    transaction that changes the catalogue (so a change committed by any process, a CLI command
    included, is seen by the next request), and read by a request that consults the cache, on
    its own session (`read_generation`: one primary-key read).
`watch` (called by the app factory) chooses between the two for a database's sessions.
docs/maintain/record-cache.md tells the whole story.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Hashable, Iterable
from typing import Any

import redis
from sqlalchemy import BigInteger, Integer, event, insert, select, update
from sqlalchemy.orm import Mapped, Session, mapped_column, sessionmaker

from models.base import Base
from models.types import rowcount

log = logging.getLogger(__name__)
MISSING = object()
GENERATION_KEY = "catalog:generation"  # under the Redis key prefix of the platform
_CHANGED = "catalog_changed"  # session.info: this transaction changes the catalogue
_AFTER_COMMIT = "catalog_after_commit"  # session.info: the Redis bump, called after the commit


class CatalogGeneration(Base):
    """The catalogue generation when there is no Redis: one row (id 1)."""

    __tablename__ = "catalog_generation"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    value: Mapped[int] = mapped_column(BigInteger, default=0)


class RecordCache:
    """Records by (kind, key), each tagged with its generation and expiry: the key is a post id,
    or for a search's total (models.search.service) its keyword and filters, and for a keyword
    search's page by relevance the same with its order, offset and size."""

    def __init__(
        self,
        seconds: float,
        *,
        in_database: bool = False,
        max_entries: int = 50_000,
        clock: Callable[[], float] = time.monotonic,
    ):
        self.seconds = seconds
        self.in_database = in_database  # no Redis: the generation is the database's row
        self.max_entries = max_entries
        self.clock = clock
        self.entries: dict[tuple[str, Hashable], tuple[int, float, object]] = {}

    @property
    def enabled(self) -> bool:
        """Whether records are kept at all."""
        return self.seconds > 0

    def get(self, kind: str, key: Hashable, generation: int) -> Any:  # what put_many kept
        """The record, or MISSING when absent, of another generation or too old."""
        entry = self.entries.get((kind, key))
        if entry is None or entry[0] != generation or entry[1] <= self.clock():
            return MISSING
        return entry[2]

    def put_many(self, kind: str, records: Iterable[tuple[Hashable, object]], generation: int) -> None:
        """Keep records read under `generation`."""
        if len(self.entries) >= self.max_entries:
            self.entries = {}  # a full cache starts over: simpler than LRU, and rare
        expires = self.clock() + self.seconds
        for key, record in records:
            self.entries[(kind, key)] = (generation, expires, record)

    def generation(self, session: Session, round_trip_generation: int | None) -> int | None:
        """The generation records are kept under for this request: the one its quota round trip
        brought (Redis; None on an unsigned request), or the database's (read on `session`);
        None when nothing is kept."""
        if not self.enabled:
            return None
        return read_generation(session) if self.in_database else round_trip_generation

    def kept_json(
        self,
        kind: str,
        post_ids: list[int],
        *,
        session: Session,
        round_trip_generation: int | None,
        read: Callable[[list[int]], dict[int, object]],
        dumps: Callable[[object], bytes],
    ) -> dict[int, bytes]:
        """UTF-8 JSON of each record by post id (b'null' when absent): kept ones of the current
        generation, the rest read with `read(missing ids) -> {id: record or None}`, serialized
        once and kept. The generation is the one the request's quota round trip brought (Redis;
        None on an unsigned request: nothing is kept), or the database's (read on `session`)."""
        current = self.generation(session, round_trip_generation)
        if current is None:
            return {i: dumps(record) for i, record in read(post_ids).items()}
        found = {i: self.get(kind, i, current) for i in dict.fromkeys(post_ids)}
        missing = [i for i, text in found.items() if text is MISSING]
        if missing:
            fresh = {i: dumps(record) for i, record in read(missing).items()}
            self.put_many(kind, fresh.items(), current)
            found.update(fresh)
        return found


class RedisGeneration:
    """The generation in Redis: shared by every process and host that uses this Redis."""

    def __init__(self, client: redis.Redis, prefix: str) -> None:
        self.client = client
        self.key = f"{prefix}:{GENERATION_KEY}"

    def bump(self) -> None:
        """A committed change of the catalogue: every process's kept records are stale now."""
        self.client.incr(self.key)


def catalog_changed(session: Session) -> None:
    """Note that this transaction changes resource posts: once it commits, the generation moves
    and every process's kept records are stale."""
    session.info[_CHANGED] = True


def read_generation(session: Session) -> int:
    """The generation kept in the database (0 before any change)."""
    return session.scalar(select(CatalogGeneration.value).where(CatalogGeneration.id == 1)) or 0


def watch(sessions: sessionmaker[Session], redis: RedisGeneration | None) -> None:
    """Move the generation for every session of this factory: in Redis after the commit when
    there is one, else in the database within the transaction (the default of any session)."""
    info = dict(sessions.kw.get("info") or {})
    info.pop(_AFTER_COMMIT, None)
    if redis is not None:
        info[_AFTER_COMMIT] = redis.bump
    sessions.configure(info=info)


@event.listens_for(Session, "before_commit")
def _bump_in_database(session: Session) -> None:
    if not session.info.get(_CHANGED) or session.info.get(_AFTER_COMMIT) is not None:
        return
    moved = session.execute(
        update(CatalogGeneration).where(CatalogGeneration.id == 1).values(value=CatalogGeneration.value + 1)
    )
    if rowcount(moved) == 0:  # a database built without the migration's row
        session.execute(insert(CatalogGeneration).values(id=1, value=1))


@event.listens_for(Session, "after_commit")
def _bump_after_commit(session: Session) -> None:
    if not session.info.pop(_CHANGED, False) or session.info.get(_AFTER_COMMIT) is None:
        return
    try:
        session.info[_AFTER_COMMIT]()
    except Exception:  # noqa: BLE001 - the commit stands; kept records expire on their own
        log.warning(
            "catalogue generation could not be moved; records kept by other processes may be "
            "served until their time limit",
            exc_info=True,
        )


@event.listens_for(Session, "after_rollback")
def _forget(session: Session) -> None:
    session.info.pop(_CHANGED, None)
