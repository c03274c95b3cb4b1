"""Resource search: keyword full-text plus filters over listed posts, sorted and paged.

The keyword part goes through the database's search backend (models/search/backends.py:
PostgreSQL tsvector + pg_trgm, SQLite FTS5); filters, sorting and paging are shared SQL.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable, Mapping
from typing import Any, Protocol

from sqlalchemy import Exists, Select, UnaryExpression, exists, func, or_, select
from sqlalchemy.orm import InstrumentedAttribute, Session
from sqlalchemy.sql.elements import ColumnElement, TextClause

from models.catalog.queries import listed_clause
from models.catalog.reads import SUMMARY_COLUMNS, summaries_by_ids, summary_page, summary_records
from models.catalog.tables import ResourceFile, ResourcePost
from models.catalog.vos import ModSummary
from models.paging import MAX_OFFSET, check_page, page_result
from models.search.backends import PostgresSearch, SearchBackend, backend_for
from models.search.counting import capped_count, count_beside, counted
from models.search.filters import SearchFilters, doc_filters, equal_filters
from models.search.tiers import (
    broad_catalogue,
    count_matches,
    documents,
    ranked_ids,
    window_holds_every_document,
)
from modhub.core.display import Display

P = ResourcePost
# What a page is sorted by: a column of resource_post, the backend's rating or the relevance (of
# several value types: numbers, times).
SortKey = ColumnElement[Any] | InstrumentedAttribute[Any]
# A search filter over resource_post's rows (SQLite's JSON containment is a text clause).
Filter = ColumnElement[bool] | TextClause

SORT_KEYS = {
    "downloads": P.download_count,
    "likes": P.like_count,
    "publishTime": P.publish_time,
    "updateTime": P.update_time,
}


def _file_of_post(*conditions: Filter) -> Exists:
    """EXISTS a visible file of the post matching the conditions."""
    f = ResourceFile
    return exists().where(f.post_id == P.id, f.is_delete.is_(False), f.file_status == "NORMAL", *conditions)


def _loader_filters(session: Session, run_platform: str | None, game_version: str | None) -> list[Filter]:
    """runPlatform alone: the post's own, or one of its visible files'. gameVersion: a visible file
    for that version and, with runPlatform, for that run platform or for none."""
    clauses: list[Filter] = []
    if run_platform is not None and game_version is None:
        clauses.append(
            or_(P.run_platform == run_platform, _file_of_post(ResourceFile.run_platform == run_platform))
        )
    if game_version is not None:
        loader = (
            [
                or_(
                    ResourceFile.run_platform == run_platform,
                    ResourceFile.run_platform.is_(None),
                    ResourceFile.run_platform == "",
                )
            ]
            if run_platform is not None
            else []
        )
        clauses.append(_file_of_post(backend_for(session).file_has_version(game_version), *loader))
    return clauses


def _filters(session: Session, filters: SearchFilters) -> list[Filter]:
    """The search filters over resource_post's columns (and its files')."""
    clauses: list[Filter] = list(equal_filters(P.__table__.c, filters))
    if (main_category := filters.get("main_category")) is not None:
        clauses.append(backend_for(session).has_category(main_category))
    return clauses + _loader_filters(session, filters.get("run_platform"), filters.get("game_version"))


def _sort_key(sort: str | None, score: ColumnElement[float] | None, backend: SearchBackend) -> SortKey:
    """The sort key: relevance only with a keyword (else updateTime); ties go by postId."""
    if sort is None or sort == "relevance":
        return score if score is not None else P.update_time
    return backend.rating if sort == "rating" else SORT_KEYS[sort]


def _by(key: SortKey, post_id: SortKey, order: str) -> list[UnaryExpression[Any]]:
    """ORDER BY key then postId, both in the requested direction."""
    return [key.asc(), post_id.asc()] if order == "asc" else [key.desc(), post_id.desc()]


# The records of a page's ids, by id (the listed ones): ModSummaryVO, or its JSON text (jsontext.Raw).
Summaries = Callable[[list[int]], Mapping[int, Any]]


class KeptTotals(Protocol):
    """A search's counts kept between requests for the catalogue as it is (the handler's:
    models.record_cache, under the catalogue generation), by what decides the matches."""

    def get(self, key: Hashable) -> int | None: ...

    def put(self, key: Hashable, count: int) -> None: ...


# A search counts its matches up to the deepest offset a page may start at (MAX_OFFSET): every
# reachable page is counted, and a broad keyword at a million resources is not counted in full.
TOTAL_CAP = MAX_OFFSET


def _capped(count: int) -> tuple[int, bool]:
    """(total, exact): a count beyond the cap reports the cap, as a lower bound."""
    return (TOTAL_CAP, False) if count > TOTAL_CAP else (count, True)


def _page(
    session: Session,
    stmt: Select[ResourcePost],
    key: SortKey,
    order: str,
    *,
    offset: int,
    page_size: int,
    display: Display,
    known: int | None = None,
) -> tuple[int, list[ModSummary]]:
    """The page in the order of the sort key's index (no keyword), read while the matches are
    counted up to the cap beside it (unless known: a kept total): its summary rows in the page's
    own statement."""
    count = counted(known) if known is not None else count_beside(session, capped_count(stmt, TOTAL_CAP))
    page = (
        stmt.with_only_columns(*SUMMARY_COLUMNS, key.label("sort_key"))
        .order_by(*_by(key, P.id, order))
        .offset(offset)
        .limit(page_size)
    )
    rows = session.execute(
        summary_page(session, page, order_by=("sort_key", "id"), descending=order != "asc")
    ).all()
    return count(), summary_records(session, rows, display=display)


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
        .order_by(*_by(ranked.c.sort_key, ranked.c.post_id, order))
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
) -> tuple[int, list[Any]]:
    """A keyword search by relevance (PostgreSQL): tiers over resource_search_doc (tiers.py), the
    count up to the cap (unless known: a kept total), then the page's records by id (summaries:
    one statement, or none for records kept)."""
    where = doc_filters(**filters)
    if known is not None:
        count = counted(known)
    else:
        estimate = documents(session)
        statement = count_matches(keyword, where, TOTAL_CAP, words_first=broad_catalogue(estimate))
        # a catalogue the window holds whole is counted by the window: counted here only if it grew
        count = count_beside(session, *statement, beside=not window_holds_every_document(estimate))
    ids, total = ranked_ids(session, keyword, where, order, offset=offset, page_size=page_size)
    found = summaries(ids) if ids else {}
    return count(total), [found[i] for i in ids if i in found]


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
    known = totals.get(kept_as) if totals is not None and kept_as is not None else None
    if tiered:

        def summaries_of(post_ids: list[int]) -> dict[int, Any]:
            return summaries_by_ids(session, post_ids=post_ids, display=display, listed_only=False)

        count, items = _tiered_page(
            session,
            keyword,
            filters,
            order or "desc",
            offset=offset,
            page_size=page_size,
            summaries=summaries or summaries_of,
            known=known,
        )
    else:
        stmt = select(P).where(listed_clause(), *_filters(session, filters))
        score = None
        if keyword:
            stmt, score = backend.match(stmt, keyword)
        read = _ranked_page if keyword else functools.partial(_page, known=known)
        count, items = read(
            session,
            stmt,
            _sort_key(sort, score, backend),
            order or "desc",
            offset=offset,
            page_size=page_size,
            display=display,
        )
    if known is None and totals is not None and kept_as is not None:
        totals.put(kept_as, count)
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
