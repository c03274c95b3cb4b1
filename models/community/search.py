"""Community full-text search (resource, discussion and question posts, answers and moments) and
search suggestions.

Every kind is matched by the catalogue's search approach. On PostgreSQL the ranked rows come from
the narrow search documents of migration 0012, kept by triggers in the writing transaction:
resource posts from resource_search_doc (the listed posts; the catalogue backend's match,
models/search/backends.py, over its columns), the community texts from community_search_doc in
one scan (models/community/search_backend.py). On SQLite, resource posts by the catalogue backend
and each community table by its FTS5 table (0010). One ranked UNION ALL gives the page and the
total (on PostgreSQL fenced, so the window count buffers only the scored rows); the page's
records are then read by id, one query per kind with its author's name joined in, only the
columns shown, as plain rows.
"""

from __future__ import annotations

import datetime as dt
import functools
from typing import Any

from sqlalchemy import Float, Row, Select, String, bindparam, case, cast, func, literal, select, union_all
from sqlalchemy import text as sql
from sqlalchemy.orm import InstrumentedAttribute, Session
from sqlalchemy.sql.elements import ColumnElement, SQLColumnExpression
from sqlalchemy.sql.selectable import GenerativeSelect, Subquery

from models.catalog.queries import listed_clause
from models.catalog.tables import ResourcePost, Tag
from models.community.search_backend import ANSWERS, MOMENTS, POSTS, Hits, postgres_hits, sqlite_match
from models.community.snippets import holds, plain, snippet
from models.community.tables import MOMENT, POST_TYPES, QUESTION, RESOURCE, Answer, CommunityPost, Moment
from models.community.vos import SearchResultVO
from models.identity.tables import User
from models.paging import check_page, page_result
from models.search.backends import RESOURCE_DOC, SqliteSearch, like_pattern, postgres_match
from modhub.core.display import Display, display_url, format_time

ANSWER = "QUESTION_ANSWER"
KINDS = (RESOURCE, *POST_TYPES, ANSWER, MOMENT)
SUGGESTIONS = 10
# This transaction only, in one round trip. A handful of index scans: starting parallel workers
# costs more than it saves (measured 50+ ms on a busy host for a keyword that matches nothing).
# The documents are read from shared buffers: a bitmap heap scan's prefetch would look every
# page up in the buffer table twice (6.8% of a broad keyword's statement, perf).
LOCAL_SETTINGS = sql(
    "SELECT set_config('max_parallel_workers_per_gather', '0', true), "
    "set_config('effective_io_concurrency', '0', true)"
)


def _hits(
    stmt: Select[int],
    kind: str,
    id_col: SQLColumnExpression[int],
    score: ColumnElement[float],
    at: SQLColumnExpression[dt.datetime | None],
) -> Hits:
    return stmt.with_only_columns(
        literal(kind, String).label("kind"),
        id_col.label("id"),
        cast(score, Float).label("score"),
        at.label("at"),
    )


def _resource_hits(postgres: bool, keyword: str, section_code: str | None) -> Hits:
    """Listed resource posts, matched by the catalogue backend; on PostgreSQL over their narrow
    copy resource_search_doc (migration 0012), which holds the listed posts only."""
    if postgres:
        stmt, score = postgres_match(
            select(RESOURCE_DOC.c.id),
            keyword,
            tsv=RESOURCE_DOC.c.search_tsv,
            doc=RESOURCE_DOC.c.search_doc,
            main_name=RESOURCE_DOC.c.main_name,
            words_cover_cjk=True,
            lowered=True,
        )
        if section_code:
            stmt = stmt.where(RESOURCE_DOC.c.section_code == section_code)
        return _hits(stmt, RESOURCE, RESOURCE_DOC.c.id, score, RESOURCE_DOC.c.publish_time)
    stmt, score = SqliteSearch().match(select(ResourcePost.id).where(listed_clause()), keyword)
    if section_code:
        stmt = stmt.where(ResourcePost.section_code == section_code)
    return _hits(stmt, RESOURCE, ResourcePost.id, score, ResourcePost.publish_time)


def _sqlite_post_hits(keyword: str, section_code: str | None, kinds: list[str]) -> Hits:
    """Discussion and question posts in one scan (the kind is the post type)."""
    stmt = select(CommunityPost.id).where(
        CommunityPost.is_delete.is_(False), CommunityPost.post_type.in_(kinds)
    )
    if section_code:
        stmt = stmt.where(CommunityPost.section_code == section_code)
    stmt, score = sqlite_match(stmt, POSTS, keyword)
    return stmt.with_only_columns(
        CommunityPost.post_type.label("kind"),
        CommunityPost.id.label("id"),
        cast(score, Float).label("score"),
        CommunityPost.publish_time.label("at"),
    )


def _sqlite_answer_hits(keyword: str, section_code: str | None) -> Hits:
    """Live answers of live questions; the section is the question's."""
    stmt = (
        select(Answer.id)
        .join(CommunityPost, CommunityPost.id == Answer.question_id)
        .where(
            Answer.is_delete.is_(False),
            CommunityPost.is_delete.is_(False),
            CommunityPost.post_type == QUESTION,
        )
    )
    if section_code:
        stmt = stmt.where(CommunityPost.section_code == section_code)
    stmt, score = sqlite_match(stmt, ANSWERS, keyword)
    return _hits(stmt, ANSWER, Answer.id, score, Answer.create_time)


def _sqlite_moment_hits(keyword: str) -> Hits:
    stmt, score = sqlite_match(select(Moment.id).where(Moment.is_delete.is_(False)), MOMENTS, keyword)
    return _hits(stmt, MOMENT, Moment.id, score, Moment.create_time)


def _community_hits(postgres: bool, keyword: str, section_code: str | None, wanted: list[str]) -> list[Hits]:
    """The community parts of the ranked union: on PostgreSQL one scan of the search documents,
    on SQLite one FTS5 (or LIKE) match per table."""
    kinds = [k for k in (*POST_TYPES, ANSWER, MOMENT) if k in wanted]
    if postgres:
        return [postgres_hits(keyword, kinds, section_code)] if kinds else []
    parts = []
    if posts := [k for k in POST_TYPES if k in kinds]:
        parts.append(_sqlite_post_hits(keyword, section_code, posts))
    if ANSWER in kinds:
        parts.append(_sqlite_answer_hits(keyword, section_code))
    if MOMENT in kinds:
        parts.append(_sqlite_moment_hits(keyword))
    return parts


def search(
    session: Session,
    *,
    keyword: str,
    entity_type: str | None,
    section_code: str | None,
    page_num: int,
    page_size: int,
    display: Display,
) -> dict[str, Any]:
    """PageResult<FullTextSearchResultVo>: best score first, then newest, then highest id.
    Moments belong to no section: a sectionCode filter leaves them out."""
    offset = check_page(page_num=page_num, page_size=page_size)
    keyword = keyword.strip()
    if not keyword:
        return page_result([], total=0, page_num=page_num, page_size=page_size)
    postgres = session.get_bind().dialect.name == "postgresql"
    ranked = _ranked(postgres, keyword, entity_type, section_code)
    if ranked is None:
        return page_result([], total=0, page_num=page_num, page_size=page_size)
    page, hits = ranked
    connection = session.connection()  # plain rows: no ORM layer
    if postgres:
        connection.execute(LOCAL_SETTINGS).close()
    rows = connection.execute(page.offset(offset).limit(page_size)).all()
    total = (
        rows[0][3]
        if rows
        else (0 if offset == 0 else connection.execute(select(func.count()).select_from(hits)).scalar_one())
    )
    items = _load(session, [(k, i, s) for k, i, s, _ in rows], keyword, display)
    return page_result(items, total=total, page_num=page_num, page_size=page_size)


@functools.lru_cache(maxsize=128)  # about 56 KiB each
def _ranked(
    postgres: bool, keyword: str, entity_type: str | None, section_code: str | None
) -> tuple[Select[str, int, float, int], Subquery] | None:
    """(the ranked statement of the hits and their total, without its page; the hits) of a search,
    or None when no kind is searched. Built once per keyword and filters (about 1 ms of Python
    each time otherwise): a pure function of its arguments, the values are bound parameters, so
    the engine's compiled cache serves every keyword of the same shape."""
    wanted = [k for k in KINDS if entity_type in (None, k) and not (k == MOMENT and section_code)]
    parts = [_resource_hits(postgres, keyword, section_code)] if RESOURCE in wanted else []
    parts += _community_hits(postgres, keyword, section_code, wanted)
    if not parts:
        return None
    matches: GenerativeSelect = union_all(*parts) if len(parts) > 1 else parts[0]
    if postgres:
        # OFFSET 0 fences the matches: the scores are computed below the window aggregate, which
        # then buffers only (kind, id, score, at) instead of every match's whole tsvector.
        matches = matches.offset(0)
    hits = matches.subquery("hits")
    page = select(hits.c.kind, hits.c.id, hits.c.score, func.count().over()).order_by(
        hits.c.score.desc(), hits.c.at.desc(), hits.c.id.desc()
    )
    return page, hits


def _load(
    session: Session, hits: list[tuple[str, int, float]], keyword: str, display: Display
) -> list[SearchResultVO]:
    """FullTextSearchResultVo of each hit: one query per kind present (posts and the questions
    of answers together), each with its author's name, reading only the columns shown; plain
    rows (no ORM identity map)."""
    wanted: dict[str, list[int]] = {}
    for kind, entity_id, _ in hits:
        wanted.setdefault(kind, []).append(entity_id)
    resources = _rows(session, RESOURCE, wanted.get(RESOURCE))
    answers = _rows(session, ANSWER, wanted.get(ANSWER))
    moments = _rows(session, MOMENT, wanted.get(MOMENT))
    post_ids = [i for k in POST_TYPES for i in wanted.get(k, [])] + [a.question_id for a in answers.values()]
    posts = _rows(session, QUESTION, post_ids)
    items: list[SearchResultVO] = []
    zone, cdn = display.time_zone, display.cdn_base_url
    for kind, entity_id, score in hits:
        question_id, cover = None, None
        if kind == RESOURCE:
            row = resources[entity_id]
            title, section, at = row.main_name, row.section_code, row.publish_time
            cover = display_url(row.cover_image, cdn)
            text = row.introduction if holds(row.introduction, keyword) else title
        elif kind == ANSWER:
            row = answers[entity_id]
            question = posts[row.question_id]
            title, section, at = question.title, question.section_code, row.create_time
            question_id = question.id
            text = row.content_md or plain(row.content_html)
        elif kind == MOMENT:
            row = moments[entity_id]
            title, section, at, text = None, None, row.create_time, plain(row.content)
        else:
            row = posts[entity_id]
            title, section, at = row.title, row.section_code, row.publish_time
            text = row.content_md if holds(row.content_md, keyword) else row.title
        items.append(
            {
                "entityType": kind,
                "entityId": entity_id,
                "questionId": question_id,
                "title": title,
                "snippet": snippet(text, keyword),
                "sectionCode": section,
                "authorId": row.user_id,
                "authorName": row.author,
                "coverImageUrl": cover,
                "score": round(float(score), 6),
                "publishTime": format_time(at, zone),
            }
        )
    return items


def _record_query(
    model: type[ResourcePost] | type[Answer] | type[Moment] | type[CommunityPost],
    *columns: InstrumentedAttribute[Any],
) -> Select[*tuple[Any, ...]]:
    """SELECT id, user_id, the columns and author (the live author's name, else null) of the rows
    whose id is in the expanding parameter ids."""
    name = case(
        (User.id.is_(None), None), else_=func.coalesce(func.nullif(User.login_name, ""), User.username)
    )
    return (
        select(model.id, model.user_id, *columns, name.label("author"))
        .outerjoin(User, (User.id == model.user_id) & User.is_delete.is_(False))
        .where(model.id.in_(bindparam("ids", expanding=True)))
    )


# Built once: only the ids change (POST_TYPES and the questions of answers share QUESTION's).
RECORDS = {
    RESOURCE: _record_query(
        ResourcePost,
        ResourcePost.main_name,
        ResourcePost.section_code,
        ResourcePost.publish_time,
        ResourcePost.cover_image,
        ResourcePost.introduction,
    ),
    ANSWER: _record_query(
        Answer, Answer.question_id, Answer.content_md, Answer.content_html, Answer.create_time
    ),
    MOMENT: _record_query(Moment, Moment.content, Moment.create_time),
    QUESTION: _record_query(
        CommunityPost,
        CommunityPost.title,
        CommunityPost.section_code,
        CommunityPost.publish_time,
        CommunityPost.content_md,
    ),
}


def _rows(session: Session, kind: str, ids: list[int] | None) -> dict[int, Row[*tuple[Any, ...]]]:
    """id -> plain row of RECORDS[kind] (through the session's connection: no ORM layer)."""
    if not ids:
        return {}
    return {r.id: r for r in session.connection().execute(RECORDS[kind], {"ids": ids})}


def suggest(session: Session, *, keyword: str) -> list[str]:
    """Up to 10 titles and tags starting with keyword (case-insensitive), most viewed first."""
    prefix = like_pattern(keyword.lower())[1:]  # 'kw%': a prefix match on lower(title)
    titles = session.scalars(
        select(CommunityPost.title)
        .where(CommunityPost.is_delete.is_(False), func.lower(CommunityPost.title).like(prefix, escape="\\"))
        .order_by(CommunityPost.views_count.desc(), CommunityPost.id.desc())
        .limit(SUGGESTIONS)
    ).all()
    resources = session.scalars(
        select(ResourcePost.main_name)
        .where(listed_clause(), func.lower(ResourcePost.main_name).like(prefix, escape="\\"))
        .order_by(ResourcePost.download_count.desc(), ResourcePost.id.desc())
        .limit(SUGGESTIONS)
    ).all()
    found: list[str] = []
    for title in [*titles, *resources, *_tags(session, keyword)]:
        if title not in found:
            found.append(title)
    return found[:SUGGESTIONS]


def _tags(session: Session, keyword: str) -> list[str]:
    prefix = like_pattern(keyword.lower())[1:]
    live = (Tag.is_delete.is_(False), func.lower(Tag.name).like(prefix, escape="\\"))
    return list(
        session.scalars(select(Tag.name).distinct().where(*live).order_by(Tag.name).limit(SUGGESTIONS))
    )
