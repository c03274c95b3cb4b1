"""Shared catalogue reads: the "listed" rule, authors of a page, paging, and a short-lived
per-process cache of catalogue aggregates (counts over every public post).

ModSummaryVO lists of mapped posts are built by `summaries`; the catalogue reads and the search
read theirs as plain rows (models/catalog/reads.py), with the same builders (records.py).
Counting over the whole catalogue costs a scan of resource_post, so aggregates are cached per
process for AGGREGATE_TTL seconds (`cached`; `forget` drops them).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Hashable, Sequence
from typing import TypeVar, cast
from weakref import WeakKeyDictionary

from sqlalchemy import ColumnElement, Connection, Engine, Row, Select, bindparam, case, func, select
from sqlalchemy.orm import Session

from models.catalog.records import author_vo, mod_summary
from models.catalog.tables import AUTHOR_ROLES, ResourceAuthor, ResourcePost
from models.catalog.vos import AuthorBrief, ModSummary
from models.identity.tables import User
from models.paging import check_page
from modhub.core.display import Display
from modhub.core.errors import ApiError

T = TypeVar("T")

POST = ResourcePost.__table__.c  # table columns: a statement of them needs no ORM compilation
AUTHOR, USER = ResourceAuthor.__table__.c, User.__table__.c
ROLE_ORDER = case(
    {role: i for i, role in enumerate(AUTHOR_ROLES)}, value=AUTHOR.role, else_=len(AUTHOR_ROLES)
)


def listed_clause() -> ColumnElement[bool]:
    """SQL condition of ResourcePost.listed: published, public and not deleted."""
    return (POST.status == "PUBLISHED") & (POST.visibility == "PUBLIC") & POST.is_delete.is_(False)


def listed_posts() -> Select[ResourcePost]:
    """SELECT of every listed resource post."""
    return select(ResourcePost).where(listed_clause())


def get_listed_or_raise(session: Session, *, post_id: int) -> ResourcePost:
    """A listed resource post, or RECORD_NOT_FOUND (unknown, deleted, private and draft alike)."""
    post = session.get(ResourcePost, post_id)
    if post is None or not post.listed:
        raise ApiError("RECORD_NOT_FOUND", f"resource {post_id} does not exist")
    return post


# An author row: (post id, user id, user name, avatar, role), in AuthorBriefVO order per post.
AUTHORS_OF = (
    select(AUTHOR.post_id, USER.id, USER.username, USER.avatar, AUTHOR.role)
    .join(User.__table__, USER.id == AUTHOR.user_id)
    .where(AUTHOR.post_id.in_(bindparam("post_ids", expanding=True)), USER.is_delete.is_(False))
    .order_by(AUTHOR.post_id, ROLE_ORDER, AUTHOR.sort_order, AUTHOR.id)
)


def authors_of(
    session: Session, *, post_ids: Sequence[int], display: Display
) -> dict[int, list[AuthorBrief]]:
    """AuthorBriefVO lists of many posts in one query, each ordered by role then sort order."""
    if not post_ids:
        return {}
    found: dict[int, list[AuthorBrief]] = {}
    rows: Sequence[Row[int, int, str, str | None, str]] = session.execute(
        AUTHORS_OF, {"post_ids": list(set(post_ids))}
    ).all()
    for post_id, user_id, user_name, avatar, role in rows:
        found.setdefault(post_id, []).append(author_vo(user_id, user_name, avatar, role, display))
    return found


def summaries(session: Session, posts: list[ResourcePost], *, display: Display) -> list[ModSummary]:
    """ModSummaryVO of each post, in order, with authors loaded in one query."""
    authors = authors_of(session, post_ids=[p.id for p in posts], display=display)
    return [mod_summary(p, display=display, authors=authors.get(p.id, [])) for p in posts]


def page_of(session: Session, query: Select[T], *, page_num: int, page_size: int) -> tuple[list[T], int]:
    """One page of a query's rows and the total count (two queries)."""
    offset = check_page(page_num=page_num, page_size=page_size)
    total = session.execute(select(func.count()).select_from(query.order_by(None).subquery())).scalar_one()
    rows = list(session.scalars(query.offset(offset).limit(page_size))) if total > offset else []
    return rows, total


AGGREGATE_TTL = 60.0

_lock = threading.Lock()
# Keyed by the session's bind (the engine; a test's own connection), so databases never mix;
# per key, when the value was computed and the value.
_entries: WeakKeyDictionary[Engine | Connection, dict[Hashable, tuple[float, object]]] = WeakKeyDictionary()


def cached(session: Session, key: Hashable, compute: Callable[[], T], *, ttl: float = AGGREGATE_TTL) -> T:
    """compute() once per ttl seconds for this database and key; concurrent misses may both compute."""
    bind = session.get_bind()
    now = time.monotonic()
    with _lock:
        hit = _entries.get(bind, {}).get(key)
    if hit is not None and now - hit[0] < ttl:
        # A key names one aggregate, computed by one function: the kept value is that function's T.
        return cast(T, hit[1])
    value = compute()
    with _lock:
        _entries.setdefault(bind, {})[key] = (now, value)
    return value


def forget(session: Session) -> None:
    """Drop every cached aggregate of the session's database (after a bulk change such as a seed)."""
    with _lock:
        _entries.pop(session.get_bind(), None)
