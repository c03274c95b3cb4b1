"""The incremental sync feed of resource posts (mods/sync, resource/sync).

Feed order. Every content change of a resource post gives it a new feed position, assigned by
a database trigger (migration 0005), so no domain function has to remember a hook: publish,
edit, hide, soft-delete, raw SQL and bulk inserts are all seen. Counter-only updates (views,
downloads, likes, collections, comments, ratings) are not content changes and move nothing.
On PostgreSQL the position is the id of the writing transaction (xid8); the feed only hands out
positions below the lowest xid still running in this database (search/backends.py HORIZON), i.e.
of transactions that have all ended, so a transaction that commits after a reader passed can
never land behind that reader's cursor (the price: an open writing transaction - read-only
ones have no xid - holds back changes committed after it began writing, until it ends).
On SQLite writers are serialized and the
trigger numbers changes in commit order. Ties are broken by post id. Resource posts are only
soft-deleted (is_delete): a row removed with DELETE leaves no trace in the feed.

The trigger also sets update_time (unless the writer set it), so items come in ascending
updateTime except where concurrent transactions interleave.
The cursor is opaque (base64url of version, position, post id and origin); the first call passes
none. The origin is the last settled feed position when the walk began (its first call): a
removal at or before it happened before the walk began, so the walker never saw that post and
it is left out of deletedPostIds (a v1 cursor has origin 0: every removal is reported).
"""

from __future__ import annotations

import base64
import binascii
import re
from typing import TypedDict

from sqlalchemy import BigInteger, Integer, bindparam, or_, select, tuple_
from sqlalchemy.orm import Session

from models.catalog.queries import POST, listed_clause
from models.catalog.reads import SUMMARY_COLUMNS, summary_page, summary_records
from models.catalog.vos import ModSummary
from models.search.backends import SearchBackend, backend_for
from modhub.core.display import Display
from modhub.core.errors import ApiError
from modhub.core.statements import Prepared

_CURSOR = re.compile(r"v1\.(\d{1,19})\.(\d{1,19})|v2\.(\d{1,19})\.(\d{1,19})\.(\d{1,19})")


class ResourceSyncVO(TypedDict):
    """One batch of the sync feed."""

    nextCursor: str
    hasMore: bool
    items: list[ModSummary]  # of the live posts
    deletedPostIds: list[int]


def encode_cursor(position: int, post_id: int, origin: int = 0) -> str:
    """The opaque cursor after (position, post_id) of a walk that began at origin."""
    return base64.urlsafe_b64encode(f"v2.{position}.{post_id}.{origin}".encode()).decode().rstrip("=")


def decode_cursor(cursor: str | None) -> tuple[int, int, int | None]:
    """(position, post id, origin) of a cursor; origin None for an empty one (a walk from
    nothing, whose origin is now); CURSOR_INVALID otherwise."""
    if not cursor:
        return 0, 0, None
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode("ascii")
    except (binascii.Error, UnicodeDecodeError, ValueError):
        raw = ""
    found = _CURSOR.fullmatch(raw)
    if found is None:
        raise ApiError(
            "CURSOR_INVALID",
            "cursor is malformed: pass a nextCursor unchanged, or none to start from the beginning",
        )
    if found.group(1) is not None:
        return int(found.group(1)), int(found.group(2)), 0
    return int(found.group(3)), int(found.group(4)), int(found.group(5))


def _changes(session: Session, backend: SearchBackend) -> Prepared:
    """The statement of a feed page on the session's database, built once per database kind and
    prepared on PostgreSQL (modhub.core.statements): summary rows (models/catalog/reads.py), each
    ending with its feed position and whether it is listed, after (:position, :last_id), :limit
    of them."""
    kind = session.get_bind().dialect.name
    stmt = _CHANGES.get(kind)
    if stmt is None:
        after = tuple_(bindparam("position", type_=BigInteger), bindparam("last_id", type_=BigInteger))
        page = (
            select(
                *SUMMARY_COLUMNS,
                backend.position.label("feed_position"),
                listed_clause().label("listed"),
            )
            .where(
                tuple_(backend.position, POST.id) > after,
                backend.settled(),
                # never-published drafts are nobody's business; everything else that was
                # public once must be reported when it leaves
                or_(POST.publish_time.is_not(None), listed_clause()),
            )
            .order_by(backend.position, POST.id)
            .limit(bindparam("limit", type_=Integer))
        )
        stmt = _CHANGES[kind] = Prepared(
            f"modhub_sync_page_{kind}", summary_page(session, page, order_by=("feed_position", "id"))
        )
    return stmt


_CHANGES: dict[str, Prepared] = {}


def sync(session: Session, *, display: Display, cursor: str | None = None, size: int = 100) -> ResourceSyncVO:
    """ResourceSyncVO: the next `size` changes after the cursor (live items and removed ids)."""
    position, last_id, origin = decode_cursor(cursor)
    backend = backend_for(session)
    if origin is None:  # a walk from nothing: removals settled until now are none of its business
        origin = backend.last_settled(session)
    params = {"position": position, "last_id": last_id, "limit": size + 1}
    rows = _changes(session, backend).rows(session, params)
    has_more = len(rows) > size
    rows = rows[:size]  # each: id first, feed position and listed last
    if rows:
        next_cursor = encode_cursor(rows[-1][-2], rows[-1][0], origin)
    else:
        next_cursor = encode_cursor(position, last_id, origin)
    return {
        "nextCursor": next_cursor,
        "hasMore": has_more,
        "items": summary_records(session, [r for r in rows if r[-1]], display=display),
        "deletedPostIds": [r[0] for r in rows if not r[-1] and r[-2] > origin],
    }
