"""A keyword search's count by relevance tiers (PostgreSQL): the statement counting its matches up
to the cap, and what decides its form, PostgreSQL's statistics of resource_search_doc (read at most
once a minute per process).

In a broad catalogue (BROAD_FROM documents or more) a keyword's words are counted first, and in
parts: migration 0017's eight partial indexes of search_tsv, one per part of postId (in_part), read
one after the other under the count's LIMIT. PostgreSQL builds the whole bitmap of an index's
matches before it reads the first row: a common phrase of the demo catalogue at a million
resources matches 150,803 documents, whose bitmap took 26 of its count's 52 ms (EXPLAIN ANALYZE),
while the cap needs the first 10,001. A part's bitmap is an eighth of it, and the other parts are
not read once the cap is reached.

A part is made of stripes of STRIPE consecutive postIds (stripe n belongs to part n mod PARTS), so
that where the table's rows lie in postId order, a part's matches lie together as the whole
index's do, and the cap is reached in as many heap pages (4,258 against 4,223 for the phrase).
Where they do not (rows rewritten in free space over time), a part's matches are spread over the
whole table, eight times thinner: 10,001 of them would take up to eight times the heap pages. The
parts are used where ANALYZE finds postId and the rows' order correlated (IN_ORDER_FROM or more),
the whole index otherwise, and where a filter is given (count_matches).
"""

from __future__ import annotations

import time
from typing import Any, NamedTuple, cast
from weakref import WeakKeyDictionary

from sqlalchemy import Select, case, func, literal_column, select, text, union_all
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session
from sqlalchemy.sql.elements import ColumnElement

from models.search import tiers
from models.search.backends import RESOURCE_DOC as D
from models.search.filters import DOC_CONDITIONS, Params
from models.search.tiers import COUNT_ROWS, Tiers
from modhub.core.statements import Prepared, prepared

# From this many documents on, a catalogue is broad: a keyword's words are counted first (a common
# word, 5% of the documents in the demo catalogue, passes the cap of 10,000 on its own), in parts.
BROAD_FROM = 200_000
PARTS, STRIPE = 8, 8192  # migration 0017's partial indexes: the same numbers
IN_ORDER_FROM = 0.9  # pg_stats.correlation of resource_search_doc.id from which the parts are read


class Documents(NamedTuple):
    """PostgreSQL's statistics of resource_search_doc: its rows (reltuples: -1 before the first
    ANALYZE) and the correlation of postId with the rows' order (None before it)."""

    rows: float
    correlation: float | None


NOT_KNOWN = Documents(-1.0, None)
_documents: WeakKeyDictionary[Engine, tuple[float, Documents]] = WeakKeyDictionary()  # -> (until, ...)
STATISTICS = text(
    "SELECT c.reltuples, (SELECT s.correlation FROM pg_stats s WHERE s.schemaname = n.nspname "
    "AND s.tablename = c.relname AND s.attname = 'id') "
    "FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
    "WHERE c.oid = 'resource_search_doc'::regclass"
)


def documents(session: Session) -> Documents:
    """resource_search_doc's statistics, read at most once a minute per process and engine. A
    session bound to one connection (the tests' rolled-back transaction) counts in line and is told
    nothing is known, without a statement."""
    bind, now = session.get_bind(), time.monotonic()
    if not isinstance(bind, Engine):
        return NOT_KNOWN
    kept = _documents.get(bind)
    if kept is None or kept[0] < now:
        rows, correlation = cast(tuple[float, float | None], session.execute(STATISTICS).one())
        kept = _documents[bind] = (now + 60, Documents(float(rows), correlation))
    return kept[1]


def broad_catalogue(docs: Documents) -> bool:
    """Whether a keyword's words are counted first (count_matches)."""
    return docs.rows >= BROAD_FROM


def in_parts(docs: Documents) -> bool:
    """Whether a broad catalogue's words are counted in parts (the module's docstring)."""
    return broad_catalogue(docs) and docs.correlation is not None and docs.correlation >= IN_ORDER_FROM


def window_holds_every_document(docs: Documents) -> bool:
    """Whether the catalogue fits in the window (0 rows: none were found at the last ANALYZE), which
    then counts the matches itself (tiers.ranked_ids): no count is needed beside it."""
    return 0 < docs.rows < tiers.WINDOW


def count_matches(
    keyword: str, filters: Params, cap: int, *, broad: bool = False, parts: bool = False
) -> tuple[Prepared, Params]:
    """The statement counting the matches, at most cap + 1 of them, and its parameters.

    broad (a catalogue where a keyword's words often pass the cap): where the match is the words or
    a substring, the words are counted first: when they alone pass the cap the substring's trigram
    bitmap is never built (PostgreSQL builds every bitmap of an OR in full before it reads a row)
    and the rows are rechecked against the words alone. Where the words stay under the cap it costs
    a count more, which is why a small catalogue is not counted so (the ten keywords of
    bench/catalog.py at 20,000 resources: 23 ms in all against 14). parts (with broad): the words
    are counted part by part (in_part), unless a filter is given: PostgreSQL then ANDs each part's
    bitmap with the filter's, built anew for each part read (keyword + section + type at a million
    resources: 64 ms in parts, 42 ms with one index)."""
    shape, params = Tiers.of(keyword)
    words = shape.words if broad else None
    parts = parts and words is not None and all(value is None for value in filters.values())

    def capped(match: ColumnElement[bool], *, by_part: bool = False) -> Select[int]:
        def rows_of(*part: ColumnElement[bool]) -> Select[Any]:
            return select(literal_column("1")).select_from(D).where(match, *DOC_CONDITIONS, *part)

        # by part: one SELECT per part, in turn; the LIMIT stops before the parts not needed
        rows = union_all(*(rows_of(in_part(p)) for p in range(PARTS))) if by_part else rows_of()
        return select(func.count()).select_from(rows.limit(COUNT_ROWS).subquery())

    def build() -> Select[int]:
        if words is None:
            return capped(shape.match)
        if shape.words_alone:
            return capped(words, by_part=parts)
        counted_words = capped(words, by_part=parts).scalar_subquery()
        return select(
            case((counted_words >= COUNT_ROWS, COUNT_ROWS), else_=capped(shape.match).scalar_subquery())
        )

    form = "_parts" if parts else "_broad" if words is not None else ""
    return prepared(f"modhub_search_count_{shape.shape}{form}", build, plan="custom"), (
        params | filters | {"count_rows": cap + 1}
    )


def in_part(part: int) -> ColumnElement[bool]:
    """The documents of one part: its index's predicate as the index writes it, with the numbers
    as constants in the SQL text, so that PostgreSQL proves the index's predicate from it."""
    stripe = D.c.id.op("/")(literal_column(str(STRIPE)))
    return stripe.op("%")(literal_column(str(PARTS))) == literal_column(str(part))
