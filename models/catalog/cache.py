"""Catalogue records kept per process between requests: ModDetailVO and ModSummaryVO by post id,
as their JSON text (handlers.resources serializes a record once, when it is read).

A record is served from here only while both hold:
  - the catalogue generation it was read under is still the current one. The generation is a
    counter in the quota store, bumped after the commit of every content change of a resource
    post (models.webhooks.events: the lifecycle's resource.* events and `catalog_changed`), and
    read in the quota's own round trip, so a request learns it without a round trip of its own:
    an update, a deletion or a visibility change is seen by the next request on every process;
  - it is younger than the time limit (MODHUB_RECORD_CACHE_SECONDS, 30 s by default): the
    counters and statistics inside a record (downloads, likes, comments, ratings, the 24 h / 7 d
    / 30 d stats) move without a content change and may lag that long.
Absent ids are kept too (as None) under the same two rules. 0 seconds turns the cache off.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable

MISSING = object()


class RecordCache:
    """Records by (kind, post id), each tagged with its generation and expiry."""

    def __init__(
        self, seconds: float, *, max_entries: int = 50_000, clock: Callable[[], float] = time.monotonic
    ):
        self.seconds = seconds
        self.max_entries = max_entries
        self.clock = clock
        self.entries: dict[tuple[str, int], tuple[int, float, object]] = {}

    @property
    def enabled(self) -> bool:
        """Whether records are kept at all."""
        return self.seconds > 0

    def get(self, kind: str, post_id: int, generation: int):
        """The record, or MISSING when absent, of another generation or too old."""
        entry = self.entries.get((kind, post_id))
        if entry is None or entry[0] != generation or entry[1] <= self.clock():
            return MISSING
        return entry[2]

    def put_many(self, kind: str, records: Iterable[tuple[int, object]], generation: int) -> None:
        """Keep records read under `generation`."""
        if len(self.entries) >= self.max_entries:
            self.entries = {}  # a full cache starts over: simpler than LRU, and rare
        expires = self.clock() + self.seconds
        for post_id, record in records:
            self.entries[(kind, post_id)] = (generation, expires, record)
