"""Resource search: keyword full-text plus filters over listed posts, sorted and paged.

The keyword part goes through the database's search backend (models/search/backends.py:
PostgreSQL tsvector + pg_trgm, SQLite FTS5); filters, sorting and paging are shared SQL.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from typing import Any, Protocol

from sqlalchemy import Select, func, select
from sqlalchemy.orm import Session

from models.catalog.reads import summaries_by_ids
from models.catalog.tables import ResourcePost
from models.catalog.vos import ModSummary
from models.paging import MAX_OFFSET, check_page, page_result
from models.search.backends import PostgresSearch, backend_for
from models.search.browse import SortKey, browse_page, listed_matching, order_by, sort_key
from models.search.counting import capped_count, count_beside, counted
from models.search.filters import SearchFilters, doc_filters
from models.search.tier_count import (
    broad_catalogue,
    count_matches,
    documents,
    in_parts,
    window_holds_every_document,
)
from models.search.tiers import ranked_ids
from modhub.core.display import Display

P = ResourcePost


# The records of a page's ids, by id (the listed ones): ModSummaryVO, or its JSON text (jsontext.Raw).
Summaries = Callable[[list[int]], Mapping[int, Any]]


class KeptTotals(Protocol):
    """A search's counts kept between requests for the catalogue as it is (the handler's:
    models.record_cache, under the catalogue generation), by what decides the matches; and a
    keyword search's pages by relevance (their count and ids), by the same and the page."""

    def get(self, key: Hashable) -> int | None: ...

    def put(self, key: Hashable, count: int) -> None: ...

    def page(self, key: Hashable) -> tuple[int, list[int]] | None: ...

    def put_page(self, key: Hashable, count: int, ids: list[int]) -> None: ...


# A search counts its matches up to the deepest offset a page may start at (MAX_OFFSET): every
# reachable page is counted, and a broad keyword at a million resources is not counted in full.
TOTAL_CAP = MAX_OFFSET


def _capped(count: int) -> tuple[int, bool]:
    """(total, exact): a count beyond the cap reports the cap, as a lower bound."""
    return (TOTAL_CAP, False) if count > TOTAL_CAP else (count, True)


def _ranked_page(
    session: Session,
    stmt: Select[ResourcePost],
    key: SortKey,
    order: str,
    *,
    offset: int,
    page_size: int,
    display: Display,
) -> tuple[int, list[ModSummary]]:
    """A keyword search by another sort key (or on SQLite): the matches must all be read to sort
    them, so count and sort them in that one pass, then read the page's records by id. The inner
    query is an optimization fence (OFFSET 0): the sort key is computed while scanning, so the
    count window and the top-N sort hold two narrow columns (postId, key) instead of whole rows."""
    ranked = stmt.with_only_columns(P.id.label("post_id"), key.label("sort_key")).offset(0).subquery()
    rows = session.execute(
        select(ranked.c.post_id, func.count().over())
        .order_by(*order_by(ranked.c.sort_key, ranked.c.post_id, order))
        .offset(offset)
        .limit(page_size)
    ).all()
    if not rows:  # past the last page, or nothing matches
        return session.execute(capped_count(stmt, TOTAL_CAP)).scalar_one(), []
    found = summaries_by_ids(session, post_ids=[r[0] for r in rows], display=display, listed_only=False)
    return rows[0][1], [found[r[0]] for r in rows if r[0] in found]


def _tiered_page(
    session: Session,
    keyword: str,
    filters: SearchFilters,
    order: str,
    *,
    offset: int,
    page_size: int,
    summaries: Summaries,
    known: int | None = None,
    kept: tuple[int, list[int]] | None = None,
) -> tuple[int, list[int], list[Any]]:
    """A keyword search by relevance (PostgreSQL): tiers over resource_search_doc (tiers.py), the
    count up to the cap (unless known: a kept total) and, while it runs beside, the page's records
    by id (summaries: one statement, or none for records kept). Its count, ids and records; a kept
    page (count and ids: their order is the documents' own, tier and postId) reads nothing but
    its records."""
    if kept is not None:
        count, (ids, total) = counted(kept[0]), (kept[1], None)
    else:
        where = doc_filters(**filters)
        if known is not None:
            count = counted(known)
        else:
            docs = documents(session)
            statement = count_matches(
                keyword, where, TOTAL_CAP, broad=broad_catalogue(docs), parts=in_parts(docs)
            )
            # a catalogue the window holds whole is counted by the window: counted here only if it grew
            count = count_beside(session, *statement, beside=not window_holds_every_document(docs))
        ids, total = ranked_ids(session, keyword, where, order, offset=offset, page_size=page_size)
    found = summaries(ids) if ids else {}  # read while the count runs beside
    return count(total), ids, [found[i] for i in ids if i in found]


def _kept_as(keyword: str, filters: SearchFilters, *, tiered: bool, by_files: bool) -> Hashable | None:
    """What a search's count is kept by (KeptTotals), or None where it is not kept: where the
    matches depend on the posts' files (a file's game version or run platform changes without
    moving the catalogue generation), or where the count comes with the page's own statement
    (a keyword sorted otherwise than by relevance, or on SQLite)."""
    if by_files or (keyword and not tiered):
        return None
    return ("tiers" if tiered else "page", TOTAL_CAP, keyword, *filters.values())


def search(
    session: Session,
    *,
    display: Display,
    keyword: str | None = None,
    section_code: str | None = None,
    resource_type: str | None = None,
    main_category: str | None = None,
    run_platform: str | None = None,
    client_environment: str | None = None,
    server_environment: str | None = None,
    is_paid: bool | None = None,
    resource_state: str | None = None,
    game_version: str | None = None,
    sort: str | None = None,
    order: str = "desc",
    page_num: int = 1,
    page_size: int = 20,
    summaries: Summaries | None = None,
    totals: KeptTotals | None = None,
) -> dict[str, Any]:
    """PageResult of ModSummaryVO: listed posts matching keyword and every given filter. A keyword
    search by relevance takes its page's records from summaries (the handler's: the records the
    record cache keeps, as their JSON text) when given; the count of matches from totals when
    it keeps one (else it is counted and kept there)."""
    offset = check_page(page_num=page_num, page_size=page_size)
    keyword = (keyword or "").strip()
    backend = backend_for(session)
    filters: SearchFilters = dict(
        section_code=section_code,
        resource_type=resource_type,
        main_category=main_category,
        run_platform=run_platform,
        client_environment=client_environment,
        server_environment=server_environment,
        is_paid=is_paid,
        resource_state=resource_state,
        game_version=game_version,
    )
    by_files = run_platform is not None or game_version is not None  # the tiers read no files
    relevance = bool(keyword) and sort in (None, "relevance")
    tiered = relevance and isinstance(backend, PostgresSearch) and not by_files
    kept_as = _kept_as(keyword, filters, tiered=tiered, by_files=by_files)
    keeping = totals if kept_as is not None else None  # what this search's count is kept in
    known = keeping.get(kept_as) if keeping is not None else None
    if tiered:

        def summaries_of(post_ids: list[int]) -> dict[int, Any]:
            return summaries_by_ids(session, post_ids=post_ids, display=display, listed_only=False)

        page_as = (kept_as, order or "desc", offset, page_size)
        kept_page = keeping.page(page_as) if keeping is not None else None
        count, ids, items = _tiered_page(
            session,
            keyword,
            filters,
            order or "desc",
            offset=offset,
            page_size=page_size,
            summaries=summaries or summaries_of,
            known=known,
            kept=kept_page,
        )
        if keeping is not None and kept_page is None:
            keeping.put_page(page_as, count, ids)
    elif keyword:
        stmt, score = backend.match(listed_matching(backend, filters), keyword)
        count, items = _ranked_page(
            session,
            stmt,
            sort_key(sort, score, backend),
            order or "desc",
            offset=offset,
            page_size=page_size,
            display=display,
        )
    else:
        count, items = browse_page(
            session,
            filters,
            sort,
            order or "desc",
            offset=offset,
            page_size=page_size,
            cap=TOTAL_CAP,
            display=display,
            known=known,
        )
    if keeping is not None and known is None:
        keeping.put(kept_as, count)
    total, exact = _capped(count)
    return page_result(
        items,
        total=total,
        page_num=page_num,
        page_size=page_size,
        total_exact=exact,
    )


def legacy_query(
    session: Session,
    *,
    display: Display,
    page_num: int,
    page_size: int,
    section_code: str | None = None,
    keyword: str | None = None,
) -> dict[str, Any]:
    """PageResult of v1 resource objects (ModSummaryVO fields), newest updateTime first."""
    return search(
        session,
        display=display,
        keyword=keyword,
        section_code=section_code,
        sort="updateTime",
        order="desc",
        page_num=page_num,
        page_size=page_size,
    )
