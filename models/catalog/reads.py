"""Catalogue records in one round trip: ModSummaryVO and ModDetailVO of resource posts.

On PostgreSQL a post's authors, links and statistics ride in the post's own row, aggregated as
JSON (for posts given by id, by one subquery grouped by post over the whole set; for a page of a
query, per row), so a detail, a batch of 50 or a page of summaries is one statement. SQLite
(the embedded mode) has no ordered JSON aggregate before 3.44: there they are read beside the
posts, one query each, and give the builders the same values. Either way the rows are plain
columns of the table (no ORM objects, no column a record does not show), turned into records by
the builders of records.py.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from functools import cache
from typing import Any, cast

from sqlalchemy import (
    ARRAY,
    JSON,
    BigInteger,
    BindParameter,
    ColumnElement,
    FromClause,
    Row,
    Select,
    Subquery,
    any_,
    bindparam,
    func,
    select,
    true,
)
from sqlalchemy.dialects.postgresql import aggregate_order_by
from sqlalchemy.orm import Session

from models.catalog.queries import AUTHOR, POST, ROLE_ORDER, USER, authors_of, listed_clause
from models.catalog.records import (
    DETAIL_FIELDS,
    DETAIL_WIDTH,
    SUMMARY_FIELDS,
    SUMMARY_WIDTH,
    author_vo,
    detail_vo,
    link_vo,
    summary_vo,
)
from models.catalog.stats import IN_WINDOWS, STATS_SUMS, brief_of, stats_briefs, window_days
from models.catalog.tables import DailyStat, ResourceAuthor, ResourceLink, ResourcePost
from models.catalog.vos import AuthorBrief, ModDetail, ModLink, ModSummary
from models.identity.tables import User
from modhub.core.display import Display
from modhub.core.statements import Prepared

POSTS, AUTHORS, USERS = ResourcePost.__table__, ResourceAuthor.__table__, User.__table__
LINK, DAY = ResourceLink.__table__.c, DailyStat.__table__.c
SUMMARY_COLUMNS = tuple(POST[name] for name in SUMMARY_FIELDS)
DETAIL_COLUMNS = tuple(POST[name] for name in DETAIL_FIELDS)
IDS: BindParameter[list[int]] = bindparam("post_ids", expanding=True)  # SQLite
IDS_ARRAY: BindParameter[Any] = bindparam("post_ids", type_=ARRAY(BigInteger))  # PostgreSQL

# PostgreSQL: the lists of a set of posts, one row per post that has any: (post_id, its list as
# a JSON array of arrays, in its record's order). For posts given by id, aggregated for the whole
# set at once (the planner knows the ids' number); a page of a query gets each row's own (see
# summary_page).
AUTHOR_LIST = func.json_agg(
    aggregate_order_by(
        func.json_build_array(USER.id, USER.username, USER.avatar, AUTHOR.role),
        ROLE_ORDER,
        AUTHOR.sort_order,
        AUTHOR.id,
    ),
    type_=JSON,
)
LINK_LIST = func.json_agg(
    aggregate_order_by(func.json_build_array(LINK.link_type, LINK.url, LINK.label), LINK.sort_order, LINK.id),
    type_=JSON,
)


def _author_list(which: ColumnElement[bool]) -> Select[Any]:
    """The authors list (`authors`) of the resource_author rows satisfying which (a condition on
    post_id), users removed left out."""
    return (
        select(AUTHOR_LIST.label("authors"))
        .select_from(AUTHORS.join(USERS, USER.id == AUTHOR.user_id))
        .where(which, USER.is_delete.is_(False))
    )


def _authors_of(which: ColumnElement[bool]) -> Subquery:
    """(authors, post_id) of the posts whose id satisfies which (a condition on post_id)."""
    return _author_list(which).add_columns(AUTHOR.post_id).group_by(AUTHOR.post_id).subquery("authors")


def _links_of(which: ColumnElement[bool]) -> Subquery:
    """(post_id, links) of the posts whose id satisfies which (a condition on post_id)."""
    return (select(LINK.post_id, LINK_LIST.label("links")).where(which).group_by(LINK.post_id)).subquery(
        "links"
    )


def _stats_of(which: ColumnElement[bool]) -> Subquery:
    """(post_id, stats): the counters of the windows (stats.STATS_SUMS) as one array; no row
    without data (zeros)."""
    return (
        select(DAY.post_id, func.json_build_array(*STATS_SUMS, type_=JSON).label("stats"))
        .where(which, *IN_WINDOWS)
        .group_by(DAY.post_id)
    ).subquery("stats")


LINKS_OF = (  # SQLite: the links of the posts
    select(LINK.post_id, LINK.link_type, LINK.url, LINK.label)
    .where(LINK.post_id.in_(IDS))
    .order_by(LINK.post_id, LINK.sort_order, LINK.id)
)

Authors = list[list[Any]] | None  # [[user id, user name, avatar, role], ...] as aggregated


def _postgres(session: Session) -> bool:
    return session.get_bind().dialect.name == "postgresql"


def summary_page(
    session: Session, page: Select[*tuple[Any, ...]], *, order_by: Sequence[str], descending: bool = False
) -> Select[*tuple[Any, ...]]:
    """The statement of a page of summary rows (summary_records). `page` selects SUMMARY_COLUMNS
    (then any labelled columns), ordered and limited; order_by names its columns that give that
    order again. On PostgreSQL the page's authors join it in the same statement."""
    if not _postgres(session):
        return page
    rows = page.subquery("page")
    # Per page row (LATERAL): its authors through the post_id index. A join of the page with the
    # authors of all its rows depends on the page's row estimate, which a cursor's conditions
    # make 1: the nested loop then aggregated every row's authors once per row (1M resources).
    authors = _author_list(AUTHOR.post_id == rows.c.id).lateral("authors")
    columns = list(rows.c)
    order = [rows.c[name].desc() if descending else rows.c[name].asc() for name in order_by]
    return (
        select(*columns[:SUMMARY_WIDTH], authors.c.authors, *columns[SUMMARY_WIDTH:])
        .select_from(rows.join(authors, true()))
        .order_by(*order)
    )


def _authors(raw: Authors, display: Display) -> list[AuthorBrief]:
    return [author_vo(i, name, avatar, role, display) for i, name, avatar, role in raw] if raw else []


def summary_records(session: Session, rows: Sequence[Sequence[Any]], *, display: Display) -> list[ModSummary]:
    """ModSummaryVO of each row of SUMMARY_COLUMNS (of summary_page or summaries_by_ids; then on
    PostgreSQL the authors), in order. On SQLite the authors of them all are read in one query."""
    if _postgres(session):
        return [summary_vo(r, authors=_authors(r[SUMMARY_WIDTH], display), display=display) for r in rows]
    authors = authors_of(session, post_ids=[r[0] for r in rows], display=display)
    return [summary_vo(r, authors=authors.get(r[0], []), display=display) for r in rows]


@cache
def _by_ids(listed_only: bool, detail: bool) -> Select[*tuple[Any, ...]]:
    """SQLite: the summary (or detail) columns of the posts of :post_ids."""
    columns: list[Any] = [*SUMMARY_COLUMNS, *DETAIL_COLUMNS] if detail else [*SUMMARY_COLUMNS]
    stmt = select(*columns).where(POST.id.in_(IDS))
    return stmt.where(listed_clause()) if listed_only else stmt


@cache
def _prepared_by_ids(listed_only: bool, detail: bool, single: bool) -> Prepared:
    """PostgreSQL: the summary (or detail) columns of the posts of :post_id (single) or of the
    array :post_ids, with their lists, prepared (modhub.core.statements): one statement, planned once
    per connection."""
    ids: Any = bindparam("post_id", type_=BigInteger) if single else any_(IDS_ARRAY)

    def of(column: ColumnElement[int]) -> ColumnElement[bool]:
        return cast(ColumnElement[bool], column == ids)

    columns: list[Any] = [*SUMMARY_COLUMNS, *DETAIL_COLUMNS] if detail else [*SUMMARY_COLUMNS]
    authors = _authors_of(of(AUTHOR.post_id))
    source: FromClause = POSTS.outerjoin(authors, authors.c.post_id == POST.id)
    columns.append(authors.c.authors)
    if detail:
        links, stats = _links_of(of(LINK.post_id)), _stats_of(of(DAY.post_id))
        source = source.outerjoin(links, links.c.post_id == POST.id).outerjoin(
            stats, stats.c.post_id == POST.id
        )
        columns += [links.c.links, stats.c.stats]
    stmt = select(*columns).select_from(source).where(of(POST.id))
    kind, size = "detail" if detail else "summary", "one" if single else "many"
    name = f"modhub_{kind}_{size}" + ("" if listed_only else "_unlisted_too")
    return Prepared(name, stmt.where(listed_clause()) if listed_only else stmt)


def _rows_by_ids(
    session: Session, post_ids: Sequence[int], *, listed_only: bool, detail: bool, **params: Any
) -> Sequence[Sequence[Any]]:
    ids = list(set(post_ids))
    if not _postgres(session):
        return session.execute(_by_ids(listed_only, detail), {"post_ids": ids, **params}).all()
    single = len(ids) == 1
    statement = _prepared_by_ids(listed_only, detail, single)
    return statement.rows(session, {"post_id": ids[0]} | params if single else {"post_ids": ids} | params)


def summaries_by_ids(
    session: Session, *, post_ids: Sequence[int], display: Display, listed_only: bool = True
) -> dict[int, ModSummary]:
    """ModSummaryVO of the posts among the ids (the listed ones only, unless told), by id: one
    statement on PostgreSQL."""
    if not post_ids:
        return {}
    rows = _rows_by_ids(session, post_ids, listed_only=listed_only, detail=False)
    return {vo["postId"]: vo for vo in summary_records(session, rows, display=display)}


def details_by_ids(
    session: Session, *, post_ids: Sequence[int], display: Display, today: dt.date
) -> dict[int, ModDetail]:
    """ModDetailVO of the listed posts among the ids, by id, with their last 24h/7d/30d
    statistics: one statement on PostgreSQL."""
    if not post_ids:
        return {}
    postgres = _postgres(session)
    rows = _rows_by_ids(session, post_ids, listed_only=True, detail=True, **window_days(today))
    if postgres:
        return {
            r[0]: detail_vo(
                r,
                authors=_authors(r[DETAIL_WIDTH], display),
                links=[link_vo(*link) for link in r[DETAIL_WIDTH + 1] or ()],
                stats=brief_of(r[DETAIL_WIDTH + 2]),
                display=display,
            )
            for r in rows
        }
    ids = [r[0] for r in rows]
    if not ids:
        return {}
    authors = authors_of(session, post_ids=ids, display=display)
    links: dict[int, list[ModLink]] = {}
    link_rows: Sequence[Row[int, str, str, str | None]] = session.execute(LINKS_OF, {"post_ids": ids}).all()
    for post_id, link_type, url, label in link_rows:
        links.setdefault(post_id, []).append(link_vo(link_type, url, label))
    stats = stats_briefs(session, post_ids=ids, today=today)
    return {
        r[0]: detail_vo(
            r, authors=authors.get(r[0], []), links=links.get(r[0], []), stats=stats[r[0]], display=display
        )
        for r in rows
    }
