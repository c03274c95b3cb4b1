"""Resource search: keyword full-text plus filters over listed posts, sorted and paged.

The keyword part goes through the database's search backend (models/search/backends.py:
PostgreSQL tsvector + pg_trgm, SQLite FTS5); filters, sorting and paging are shared SQL.
"""

from __future__ import annotations

from sqlalchemy import Select, func, select
from sqlalchemy.orm import Session

from models.catalog.queries import check_page, listed_clause, page_result, summaries
from models.catalog.tables import ResourcePost
from models.search.backends import RESOURCE_DOC as D
from models.search.backends import PostgresSearch, backend_for, postgres_match
from modhub.core.display import Display

P = ResourcePost

SORT_KEYS = {"downloads": P.download_count, "likes": P.like_count, "publishTime": P.publish_time,
             "updateTime": P.update_time}


def _filters(session: Session, *, section_code, resource_type, main_category, run_platform,
             client_environment, server_environment, is_paid, resource_state) -> list:
    equal = {P.section_code: section_code, P.resource_type: resource_type,
             P.run_platform: run_platform, P.client_environment: client_environment,
             P.server_environment: server_environment, P.is_paid: is_paid,
             P.resource_state: resource_state}
    clauses = [column == value for column, value in equal.items() if value is not None]
    if main_category is not None:
        clauses.append(backend_for(session).has_category(main_category))
    return clauses


def _sort_key(sort: str | None, score, backend):
    """The sort key: relevance only with a keyword (else updateTime); ties go by postId."""
    if sort in (None, "relevance"):
        return score if score is not None else P.update_time
    return backend.rating if sort == "rating" else SORT_KEYS[sort]


def _by(key, post_id, order: str) -> list:
    """ORDER BY key then postId, both in the requested direction."""
    return [key.asc(), post_id.asc()] if order == "asc" else [key.desc(), post_id.desc()]


def _page(session: Session, stmt: Select, key, order: str, *, offset: int, page_size: int) -> tuple:
    """Count, then read the page in the order of the sort key's index (no keyword)."""
    total = session.scalar(stmt.with_only_columns(func.count(P.id)))
    posts = [] if offset >= total else list(
        session.scalars(stmt.order_by(*_by(key, P.id, order)).offset(offset).limit(page_size)))
    return total, posts


def _ranked_page(session: Session, stmt: Select, key, order: str, *, offset: int, page_size: int,
                 post_id=P.id) -> tuple:
    """Keyword matches must all be read to rank them: count and rank them in that one pass, then
    load the page's posts by id. The inner query is an optimization fence (OFFSET 0): the sort key
    is computed while scanning, so the count window and the top-N sort hold two narrow columns
    (postId, key) instead of whole rows. post_id: the id column of the statement's rows."""
    ranked = stmt.with_only_columns(post_id.label("post_id"), key.label("sort_key")).offset(0).subquery()
    rows = session.execute(select(ranked.c.post_id, func.count().over())
                           .order_by(*_by(ranked.c.sort_key, ranked.c.post_id, order))
                           .offset(offset).limit(page_size)).all()
    if not rows:  # past the last page, or nothing matches
        return session.scalar(stmt.with_only_columns(func.count(post_id))), []
    found = {p.id: p for p in session.scalars(select(P).where(P.id.in_([r[0] for r in rows])))}
    return rows[0][1], [found[r[0]] for r in rows]


def _ranked_documents(session: Session, keyword: str, section_code: str | None, order: str, *,
                      offset: int, page_size: int) -> tuple:
    """A keyword search by relevance with no filter but the section (PostgreSQL): the same match
    and score as PostgresSearch over resource_search_doc, migration 0012's narrow copy of the
    listed posts' search columns (about 540 bytes a row against resource_post's 1.3 kB, so a broad
    keyword reads about half the pages), then the page's posts by id."""
    stmt, score = postgres_match(select(D.c.id), keyword, tsv=D.c.search_tsv, doc=D.c.search_doc,
                                 main_name=D.c.main_name)
    if section_code is not None:
        stmt = stmt.where(D.c.section_code == section_code)
    return _ranked_page(session, stmt, score, order, offset=offset, page_size=page_size, post_id=D.c.id)


def search(session: Session, *, display: Display, keyword: str | None = None, section_code: str | None = None,
           resource_type: str | None = None, main_category: str | None = None,
           run_platform: str | None = None, client_environment: str | None = None,
           server_environment: str | None = None, is_paid: bool | None = None,
           resource_state: str | None = None, sort: str | None = None, order: str = "desc",
           page_num: int = 1, page_size: int = 20) -> dict:
    """PageResult of ModSummaryVO: listed posts matching keyword and every given filter."""
    offset = check_page(page_num=page_num, page_size=page_size)
    keyword = (keyword or "").strip()
    backend = backend_for(session)
    if keyword and sort in (None, "relevance") and isinstance(backend, PostgresSearch) and all(
            f is None for f in (resource_type, main_category, run_platform, client_environment,
                                server_environment, is_paid, resource_state)):
        total, posts = _ranked_documents(session, keyword, section_code, order or "desc", offset=offset,
                                         page_size=page_size)
        return page_result(summaries(session, posts, display=display), total=total, page_num=page_num,
                           page_size=page_size)
    stmt = select(P).where(listed_clause(), *_filters(
        session, section_code=section_code, resource_type=resource_type,
        main_category=main_category, run_platform=run_platform,
        client_environment=client_environment, server_environment=server_environment,
        is_paid=is_paid, resource_state=resource_state))
    score = None
    if keyword:
        stmt, score = backend.match(stmt, keyword)
    read = _ranked_page if keyword else _page
    total, posts = read(session, stmt, _sort_key(sort, score, backend), order or "desc", offset=offset,
                        page_size=page_size)
    return page_result(summaries(session, posts, display=display), total=total, page_num=page_num,
                       page_size=page_size)


def legacy_query(session: Session, *, display: Display, page_num: int, page_size: int,
                 section_code: str | None = None, keyword: str | None = None) -> dict:
    """PageResult of v1 resource objects (ModSummaryVO fields), newest updateTime first."""
    return search(session, display=display, keyword=keyword, section_code=section_code,
                  sort="updateTime", order="desc", page_num=page_num, page_size=page_size)
