"""A search without a keyword, or one sorted otherwise than by relevance: the filters and the sort
key over resource_post's rows, and the page read in the order of the sort key's index.

On PostgreSQL a page without a keyword and its count are prepared statements
(modhub.core.statements), planned for their values (plan="custom"): the filters of
resource_post's own columns are in every one as optional conditions (bound NULL when not given,
folded away by PostgreSQL), the files' filters (runPlatform, gameVersion) make statements of
their own; a page per sort key and direction. So a connection holds 44 at most, and each plan
is the one of the SQL built per request before. Building that SQL took six times as long as
what remains (20,000 resources, sectionCode + resourceType by downloads: 3.5 ms of CPU a search,
0.55 ms prepared), and the page's rows come back processed as the catalogue's prepared reads do.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sqlalchemy import (
    BindParameter,
    Exists,
    Integer,
    Select,
    UnaryExpression,
    bindparam,
    exists,
    or_,
    select,
)
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import InstrumentedAttribute, Session
from sqlalchemy.sql.elements import ColumnElement, TextClause

from models.catalog.queries import listed_clause
from models.catalog.reads import SUMMARY_COLUMNS, summary_page, summary_records
from models.catalog.tables import ResourceFile, ResourcePost
from models.catalog.vos import ModSummary
from models.search.backends import PostgresSearch, SearchBackend, backend_for
from models.search.counting import capped_count, count_beside, counted
from models.search.filters import EQUAL_FILTERS, SearchFilters, equal_filters
from modhub.core.display import Display
from modhub.core.statements import Prepared, prepared

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
# Every filter of a search (a prepared browse binds each one, NULL when not given).
FILTERS = (*EQUAL_FILTERS, "main_category", "run_platform", "game_version")
# The filters over a post's files, by their code in a prepared browse's name (the statements differ).
FILE_FILTERS = {"run_platform": "p", "game_version": "v"}
# The filters compared with the elements of a JSON array: bound as the JSONB array of the value.
ARRAY_FILTERS = ("main_category", "game_version")


def _file_of_post(*conditions: Filter) -> Exists:
    """EXISTS a visible file of the post matching the conditions."""
    f = ResourceFile
    return exists().where(f.post_id == P.id, f.is_delete.is_(False), f.file_status == "NORMAL", *conditions)


def _loader_filters(backend: SearchBackend, run_platform: Any, game_version: Any) -> list[Filter]:
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
        clauses.append(_file_of_post(backend.file_has_version(game_version), *loader))
    return clauses


def filter_conditions(backend: SearchBackend, given: Mapping[str, Any]) -> list[Filter]:
    """The conditions over resource_post's rows (and its files') of the filters given (a value, or
    on PostgreSQL the bind parameter of one; None or absent: not filtered), by name."""
    clauses: list[Filter] = list(equal_filters(P.__table__.c, given))
    if (main_category := given.get("main_category")) is not None:
        clauses.append(backend.has_category(main_category))
    return clauses + _loader_filters(backend, given.get("run_platform"), given.get("game_version"))


def listed_matching(backend: SearchBackend, given: Mapping[str, Any], *more: Filter) -> Select[Any]:
    """The listed posts matching the filters given (filter_conditions) and more conditions."""
    return select(P).where(listed_clause(), *filter_conditions(backend, given), *more)


def sort_key(sort: str | None, score: ColumnElement[float] | None, backend: SearchBackend) -> SortKey:
    """The sort key: relevance only with a keyword (else updateTime); ties go by postId."""
    if sort is None or sort == "relevance":
        return score if score is not None else P.update_time
    return backend.rating if sort == "rating" else SORT_KEYS[sort]


def order_by(key: SortKey, post_id: SortKey, order: str) -> list[UnaryExpression[Any]]:
    """ORDER BY key then postId, both in the requested direction."""
    return [key.asc(), post_id.asc()] if order == "asc" else [key.desc(), post_id.desc()]


def _sorted(stmt: Select[Any], key: SortKey, order: str) -> Select[Any]:
    """stmt's summary columns and sort key, in the sort key's order (then postId)."""
    return stmt.with_only_columns(*SUMMARY_COLUMNS, key.label("sort_key")).order_by(
        *order_by(key, P.id, order)
    )


def browse_page(
    session: Session,
    filters: SearchFilters,
    sort: str | None,
    order: str,
    *,
    offset: int,
    page_size: int,
    cap: int,
    display: Display,
    known: int | None = None,
) -> tuple[int, list[ModSummary]]:
    """The page of a search without a keyword, read while its matches are counted up to cap + 1
    beside it (unless known: a kept total), its summary rows in the page's own statement."""
    backend = backend_for(session)
    if isinstance(backend, PostgresSearch):
        page, total = _prepared(session, backend, filters, sort, order)
        params = _values(filters)
        bounds = {"page_offset": offset, "page_size": page_size}
        count = (
            counted(known)
            if known is not None
            else count_beside(session, total, params | {"count_rows": cap + 1})
        )
        rows = page.rows(session, params | bounds)  # while the count runs beside
        records = summary_records(session, rows, display=display)
        return count(), records
    stmt = listed_matching(backend, filters)
    count = counted(known) if known is not None else count_beside(session, capped_count(stmt, cap))
    sorted_page = _sorted(stmt, sort_key(sort, None, backend), order).offset(offset).limit(page_size)
    rows = session.execute(sorted_page).all()
    records = summary_records(session, rows, display=display)
    return count(), records


def _prepared(
    session: Session, backend: PostgresSearch, filters: SearchFilters, sort: str | None, order: str
) -> tuple[Prepared, Prepared]:
    """The page (of a sort key, a direction and the file filters given) and the count (of the file
    filters given) of a search without a keyword (built at their first use)."""
    key = sort if sort in SORT_KEYS or sort == "rating" else "updateTime"
    files = "".join(code for name, code in FILE_FILTERS.items() if filters.get(name) is not None)

    def listed() -> Select[Any]:
        bound = {name: _bound(name) for name, code in FILE_FILTERS.items() if code in files}
        return listed_matching(backend, bound, *_optional_filters(backend))

    def build_page() -> Select[Any]:
        page = _sorted(listed(), sort_key(key, None, backend), order)
        page = page.offset(bindparam("page_offset", type_=Integer))
        page = page.limit(bindparam("page_size", type_=Integer))
        return summary_page(session, page, order_by=("sort_key", "id"), descending=order != "asc")

    shape = f"{files}_" if files else ""
    direction = "a" if order == "asc" else "d"
    return (
        prepared(f"modhub_browse_{shape}{key.lower()}_{direction}", build_page, plan="custom"),
        prepared(
            f"modhub_browse_count{'_' + files if files else ''}",
            lambda: capped_count(listed(), None),
            plan="custom",
        ),
    )


def _optional_filters(backend: PostgresSearch) -> list[Filter]:
    """The filters of resource_post's own columns, each as `:filter_<name> IS NULL OR` its
    condition: one statement whatever of them a search gives (the others bound NULL), which
    PostgreSQL folds away when it plans the statement for its values (as the keyword search's:
    models/search/filters.py). The files' filters are not: an EXISTS under an OR stays a subplan
    run for every row (PostgreSQL turns EXISTS into a join before it folds constants)."""
    v = {name: _bound(name) for name in (*EQUAL_FILTERS, "main_category")}
    optional: list[Filter] = [
        or_(v[name].is_(None), P.__table__.c[name] == v[name]) for name in EQUAL_FILTERS
    ]
    optional.append(or_(v["main_category"].is_(None), backend.has_category(v["main_category"])))
    return optional


def _bound(name: str) -> BindParameter[Any]:
    """The bind parameter of a filter's value, of its column's type; a category's or a version's
    (compared with a JSON array's elements): JSONB, the array of the value (_values)."""
    kind = JSONB(none_as_null=True) if name in ARRAY_FILTERS else P.__table__.c[name].type
    return bindparam(f"filter_{name}", type_=kind)


def _values(filters: SearchFilters) -> dict[str, Any]:
    """The filters' bind parameters (None: not given)."""
    values: dict[str, Any] = {}
    for name in FILTERS:
        value = filters.get(name)
        values[f"filter_{name}"] = [value] if value is not None and name in ARRAY_FILTERS else value
    return values
