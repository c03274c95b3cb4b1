"""The incremental sync walk: changes and tombstones, with the cursor kept between walks."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any, Literal, cast

from modhub_client.models import ModSummaryVO, ResourceSyncVO


@dataclass(frozen=True)
class Change:
    """One entry of the feed: `kind` "changed" (with `mod`) or "deleted" (a tombstone: drop it)."""

    kind: Literal["changed", "deleted"]
    post_id: int
    mod: ModSummaryVO | None = None


class SyncState:
    """The cursor of a walk. Save `cursor` (a string) and give it back to continue later.

    A batch's changes are yielded before the cursor moves past them: a walk stopped in the middle
    of a batch starts that batch again (changes are idempotent upserts and deletes).
    """

    def __init__(self, cursor: str | None = None):
        self.cursor = cursor or None
        self.has_more = True

    def params(self) -> str | None:
        """The cursor to send."""
        return self.cursor

    def changes(self, data: Any) -> Iterator[Change]:
        """The changes of one batch; moves the cursor once they are all handed out."""
        batch = cast(ResourceSyncVO, data or {})
        for mod in cast(Iterable[ModSummaryVO], batch.get("items") or []):
            yield Change("changed", int(mod["postId"]), mod)
        for post_id in batch.get("deletedPostIds") or []:
            yield Change("deleted", int(post_id))
        # nextCursor is kept even when hasMore is false; an empty one means "nothing to continue from"
        self.cursor = batch.get("nextCursor") or self.cursor
        self.has_more = bool(batch.get("hasMore"))
