"""Community full-text search (resource, discussion and question posts) and title suggestions.

Resource posts are matched by the catalogue's search backend (PostgreSQL tsvector + pg_trgm,
SQLite FTS5); community posts by a case-insensitive substring of title and Markdown text
(PostgreSQL: a trigram GIN index over that expression, migration 0008). One ranked UNION ALL
gives the page and the total; the page's records are then loaded by id.
"""

from __future__ import annotations

import html
import re

from sqlalchemy import Float, String, case, cast, func, literal, literal_column, select, union_all
from sqlalchemy.orm import Session

from models.catalog.queries import check_page, listed_clause, page_result
from models.catalog.tables import ResourcePost, Tag
from models.community.records import user_name
from models.community.tables import POST_TYPES, RESOURCE, CommunityPost
from models.identity.tables import User
from models.search.backends import backend_for, like_pattern
from modhub.core.display import display_url, format_time

SUGGESTIONS = 10
SNIPPET_SPAN = 40


def search_text():
    """The lower-cased searchable text of a community post (indexed on PostgreSQL)."""
    space, empty = literal_column("' '", String), literal_column("''", String)
    return func.lower(CommunityPost.title.op("||")(space).op("||")(
        func.coalesce(CommunityPost.content_md, empty)))


def snippet(text: str | None, keyword: str) -> str | None:
    """An HTML-escaped excerpt around the first match, every match wrapped in <em>."""
    if not text:
        return None
    at = text.lower().find(keyword.lower())
    start = max(at - SNIPPET_SPAN, 0) if at >= 0 else 0
    part = text[start:start + 2 * SNIPPET_SPAN + len(keyword)]
    escaped = html.escape(part)
    marked = re.sub(re.escape(html.escape(keyword)), lambda m: f"<em>{m.group(0)}</em>", escaped,
                    flags=re.I)
    return ("…" if start else "") + marked


def _resource_hits(session: Session, keyword: str, section_code: str | None):
    stmt, score = backend_for(session).match(select(ResourcePost.id).where(listed_clause()), keyword)
    if section_code:
        stmt = stmt.where(ResourcePost.section_code == section_code)
    return stmt.with_only_columns(literal(RESOURCE, String).label("kind"), ResourcePost.id.label("id"),
                                  cast(score, Float).label("score"),
                                  ResourcePost.publish_time.label("at"))


def _post_hits(keyword: str, section_code: str | None, kinds: list[str]):
    pattern = like_pattern(keyword.lower())
    in_title = func.lower(CommunityPost.title).like(pattern, escape="\\")
    stmt = select(CommunityPost.post_type.label("kind"), CommunityPost.id.label("id"),
                  cast(case((in_title, 1.0), else_=0.5), Float).label("score"),
                  CommunityPost.publish_time.label("at")).where(
        CommunityPost.is_delete.is_(False), CommunityPost.post_type.in_(kinds),
        search_text().like(pattern, escape="\\"))
    if section_code:
        stmt = stmt.where(CommunityPost.section_code == section_code)
    return stmt


def search(session: Session, *, keyword: str, entity_type: str | None, section_code: str | None,
           page_num: int, page_size: int, settings) -> dict:
    """PageResult<FullTextSearchResultVo>: best score first, then newest, then highest id."""
    offset = check_page(page_num=page_num, page_size=page_size)
    parts = []
    if entity_type in (None, RESOURCE):
        parts.append(_resource_hits(session, keyword, section_code))
    kinds = [k for k in POST_TYPES if entity_type in (None, k)]
    if kinds:
        parts.append(_post_hits(keyword, section_code, kinds))
    hits = (union_all(*parts) if len(parts) > 1 else parts[0]).subquery("hits")
    rows = session.execute(select(hits.c.kind, hits.c.id, hits.c.score, func.count().over())
                           .order_by(hits.c.score.desc(), hits.c.at.desc(), hits.c.id.desc())
                           .offset(offset).limit(page_size)).all()
    total = rows[0][3] if rows else (
        0 if offset == 0 else session.scalar(select(func.count()).select_from(hits)))
    items = _load(session, [(k, i, s) for k, i, s, _ in rows], keyword, settings)
    return page_result(items, total=total, page_num=page_num, page_size=page_size)


def _load(session: Session, hits: list[tuple], keyword: str, settings) -> list[dict]:
    res_ids = [i for k, i, _ in hits if k == RESOURCE]
    post_ids = [i for k, i, _ in hits if k != RESOURCE]
    resources = {p.id: p for p in session.scalars(select(ResourcePost).where(ResourcePost.id.in_(res_ids)))}
    posts = {p.id: p for p in session.scalars(select(CommunityPost).where(CommunityPost.id.in_(post_ids)))}
    user_ids = {p.user_id for p in [*resources.values(), *posts.values()] if p.user_id}
    users = {u.id: u for u in session.scalars(select(User).where(User.id.in_(user_ids),
                                                                 User.is_delete.is_(False)))}
    items, zone, cdn = [], settings.time_zone, settings.cdn_base_url
    for kind, entity_id, score in hits:
        if kind == RESOURCE:
            row = resources[entity_id]
            title, cover = row.main_name, display_url(row.cover_image, cdn)
            text = row.introduction if keyword.lower() in (row.introduction or "").lower() else title
        else:
            row = posts[entity_id]
            title, cover = row.title, None
            text = row.content_md if keyword.lower() in (row.content_md or "").lower() else row.title
        items.append({"entityType": kind, "entityId": entity_id, "title": title,
                      "snippet": snippet(text, keyword), "sectionCode": row.section_code,
                      "authorId": row.user_id, "authorName": user_name(users.get(row.user_id)),
                      "coverImageUrl": cover, "score": round(float(score), 6),
                      "publishTime": format_time(row.publish_time, zone)})
    return items


def suggest(session: Session, *, keyword: str) -> list[str]:
    """Up to 10 titles and tags starting with keyword (case-insensitive), most viewed first."""
    prefix = like_pattern(keyword.lower())[1:]  # 'kw%': a prefix match on lower(title)
    titles = session.scalars(
        select(CommunityPost.title).where(CommunityPost.is_delete.is_(False),
                                          func.lower(CommunityPost.title).like(prefix, escape="\\"))
        .order_by(CommunityPost.views_count.desc(), CommunityPost.id.desc()).limit(SUGGESTIONS)).all()
    resources = session.scalars(
        select(ResourcePost.main_name).where(listed_clause(),
                                             func.lower(ResourcePost.main_name).like(prefix, escape="\\"))
        .order_by(ResourcePost.download_count.desc(), ResourcePost.id.desc()).limit(SUGGESTIONS)).all()
    found: list[str] = []
    for title in [*titles, *resources, *_tags(session, keyword)]:
        if title not in found:
            found.append(title)
    return found[:SUGGESTIONS]


def _tags(session: Session, keyword: str) -> list[str]:
    prefix = like_pattern(keyword.lower())[1:]
    live = (Tag.is_delete.is_(False), func.lower(Tag.name).like(prefix, escape="\\"))
    return list(session.scalars(select(Tag.name).distinct().where(*live)
                                .order_by(Tag.name).limit(SUGGESTIONS)))

