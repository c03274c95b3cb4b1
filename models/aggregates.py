"""A short-lived per-process cache of catalogue aggregates (counts over every public post).

Counting over the whole catalogue costs a scan of resource_post (about 100 ms at 100k posts),
so the counts behind sections, the category tree, filter options, tags, the featured ranking
and the forum statistics are recomputed at most every AGGREGATE_TTL seconds per process and per
database. Answers built from them may therefore lag behind a change by up to that long.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Hashable
from typing import TypeVar
from weakref import WeakKeyDictionary

from sqlalchemy.orm import Session

AGGREGATE_TTL = 60.0
T = TypeVar("T")

_lock = threading.Lock()
# Keyed by the session's bind (the engine; a test's own connection), so databases never mix.
_entries: WeakKeyDictionary = WeakKeyDictionary()


def cached(session: Session, key: Hashable, compute: Callable[[], T], *, ttl: float = AGGREGATE_TTL) -> T:
    """compute() once per ttl seconds for this database and key; concurrent misses may both compute."""
    bind = session.get_bind()
    now = time.monotonic()
    with _lock:
        hit = _entries.get(bind, {}).get(key)
    if hit is not None and now - hit[0] < ttl:
        return hit[1]
    value = compute()
    with _lock:
        _entries.setdefault(bind, {})[key] = (now, value)
    return value


def forget(session: Session) -> None:
    """Drop every cached aggregate of the session's database (after a bulk change such as a seed)."""
    with _lock:
        _entries.pop(session.get_bind(), None)
