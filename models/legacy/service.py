"""Legacy v1 reads: free-form post, resource, server and tag objects built from the v2 records."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

from sqlalchemy import Row, func, select, true
from sqlalchemy.orm import Session

from models.catalog.queries import (
    cached,
    listed_clause,
    listed_posts,
    page_of,
    summaries,
)
from models.catalog.reads import details_by_ids
from models.catalog.service import get_detail
from models.catalog.tables import ResourcePost, ServerPost, Tag
from models.catalog.vos import ModDetail
from models.community import posts as community_posts
from models.paging import page_result
from models.search.backends import backend_for, like_pattern
from modhub.core.display import Display
from modhub.core.errors import ApiError

RESOURCE, SERVER = "RESOURCE_POST", "SERVER_POST"
COMMUNITY_KINDS = ("DISCUSS_POST", "QUESTION_POST")


def _kind(post_type: str | None) -> str:
    return post_type or RESOURCE


def _community_post(session: Session, *, kind: str, post_id: int, display: Display) -> dict[str, Any]:
    """Legacy object of a discussion post (CommunityPostDetailVO) or question (CommunityQuestionVO)."""
    read = community_posts.get_discuss if kind == "DISCUSS_POST" else community_posts.get_question
    return {**read(session, post_id=post_id, display=display), "postType": kind}


def _community_page(
    session: Session,
    *,
    kind: str,
    page_num: int,
    page_size: int,
    section_code: str | None,
    keyword: str | None,
    display: Display,
) -> dict[str, Any]:
    """PageResult of legacy discussion or question objects (the v2 list records plus postType)."""
    common: dict[str, Any] = {
        "section_code": section_code,
        "keyword": keyword,
        "page_num": page_num,
        "page_size": page_size,
        "display": display,
    }
    page = (
        community_posts.query_discuss(session, **common)
        if kind == "DISCUSS_POST"
        else community_posts.query_questions(session, is_resolved=None, **common)
    )
    return {**page, "list": [{**item, "postType": kind} for item in page["list"]]}


def server_status(post: ServerPost, *, display: Display) -> dict[str, Any]:
    """OpenApiServerStatusVo of a server post."""
    return {
        "postId": post.id,
        "mainName": post.main_name,
        "queryEnabled": post.query_enabled,
        "queryType": post.query_type,
        "serverPort": post.server_port,
        "currentPlayers": post.current_players,
        "maxPlayers": post.max_players,
        "serverStatus": post.server_status,
        "serverMotd": post.server_motd,
        "latencyMs": post.latency_ms,
        "lastHeartbeatTime": display.time(post.last_heartbeat_time),
    }


def server_object(post: ServerPost, *, display: Display) -> dict[str, Any]:
    """Legacy server object: the status fields plus sectionCode, serverIp and serverVersion."""
    return {
        **server_status(post, display=display),
        "sectionCode": post.section_code,
        "serverIp": post.server_ip,
        "serverVersion": getattr(post, "server_version", None),
        "postType": SERVER,
    }


def get_server_or_raise(session: Session, *, post_id: int) -> ServerPost:
    """A server post that is not deleted, or RECORD_NOT_FOUND."""
    post = session.get(ServerPost, post_id)
    if post is None or post.is_delete:
        raise ApiError("RECORD_NOT_FOUND", f"server post {post_id} does not exist")
    return post


def get_server_status(session: Session, *, post_id: int, display: Display) -> dict[str, Any]:
    """OpenApiServerStatusVo of one live server post."""
    return server_status(get_server_or_raise(session, post_id=post_id), display=display)


def query_servers(
    session: Session,
    *,
    page_num: int,
    page_size: int,
    server_status: str | None,
    query_enabled: bool | None,
    display: Display,
) -> dict[str, Any]:
    """PageResult of legacy server objects, most players online first."""
    query = select(ServerPost).where(ServerPost.is_delete.is_(False))
    if server_status:
        query = query.where(ServerPost.server_status == server_status)
    if query_enabled is not None:
        query = query.where(ServerPost.query_enabled.is_(query_enabled))
    query = query.order_by(ServerPost.current_players.desc(), ServerPost.id.desc())
    rows, total = page_of(session, query, page_num=page_num, page_size=page_size)
    return page_result(
        [server_object(p, display=display) for p in rows], total=total, page_num=page_num, page_size=page_size
    )


def get_resource(session: Session, *, post_id: int, display: Display, today: dt.date) -> ModDetail:
    """Legacy resource object: the fields of ModDetailVO."""
    return get_detail(session, post_id=post_id, display=display, today=today)


def get_post(
    session: Session, *, post_id: int, post_type: str | None, display: Display, today: dt.date
) -> dict[str, Any]:
    """Legacy post object of a resource post (default) or a server post, with postType."""
    if post_type in COMMUNITY_KINDS:
        return _community_post(session, kind=post_type, post_id=post_id, display=display)
    if _kind(post_type) == SERVER:
        return server_object(get_server_or_raise(session, post_id=post_id), display=display)
    return {**get_resource(session, post_id=post_id, display=display, today=today), "postType": RESOURCE}


def batch_post_detail(
    session: Session, *, post_ids: list[int], display: Display, today: dt.date, post_type: str | None = None
) -> list[dict[str, Any] | None]:
    """Legacy post objects of one kind (resource posts by default) in request order; null where
    the id is not a shown post of that kind."""
    kind = _kind(post_type)
    if kind in COMMUNITY_KINDS:
        found = community_posts.details_by_ids(session, post_type=kind, post_ids=post_ids, display=display)
        by_id = {i: {**vo, "postType": kind} for i, vo in found.items()}
    elif kind == SERVER:
        servers = session.scalars(
            select(ServerPost).where(ServerPost.id.in_(set(post_ids)), ServerPost.is_delete.is_(False))
        )
        by_id = {p.id: server_object(p, display=display) for p in servers}
    else:
        resources = details_by_ids(session, post_ids=post_ids, display=display, today=today)
        by_id = {i: {**d, "postType": RESOURCE} for i, d in resources.items()}
    return [by_id.get(i) for i in post_ids]


def query_posts(
    session: Session,
    *,
    page_num: int,
    page_size: int,
    section_code: str | None,
    post_type: str | None,
    keyword: str | None,
    display: Display,
) -> dict[str, Any]:
    """PageResult of legacy post objects of one kind (resource posts by default), newest first."""
    kind = _kind(post_type)
    if kind in COMMUNITY_KINDS:
        return _community_page(
            session,
            kind=kind,
            page_num=page_num,
            page_size=page_size,
            section_code=section_code,
            keyword=keyword,
            display=display,
        )
    if kind == SERVER:
        return _server_page(
            session,
            page_num=page_num,
            page_size=page_size,
            section_code=section_code,
            keyword=keyword,
            display=display,
        )
    query = listed_posts()
    if section_code:
        query = query.where(ResourcePost.section_code == section_code)
    if keyword:
        query, _ = backend_for(session).match(query, keyword)  # the v2 search's keyword matching
    query = query.order_by(ResourcePost.publish_time.desc(), ResourcePost.id.desc())
    rows, total = page_of(session, query, page_num=page_num, page_size=page_size)
    items = [{**s, "postType": RESOURCE} for s in summaries(session, rows, display=display)]
    return page_result(items, total=total, page_num=page_num, page_size=page_size)


def _server_page(
    session: Session,
    *,
    page_num: int,
    page_size: int,
    section_code: str | None,
    keyword: str | None,
    display: Display,
) -> dict[str, Any]:
    """PageResult of legacy server objects (live server posts), newest first."""
    query = select(ServerPost).where(ServerPost.is_delete.is_(False))
    if section_code:
        query = query.where(ServerPost.section_code == section_code)
    if keyword:
        query = query.where(func.lower(ServerPost.main_name).like(like_pattern(keyword.lower()), escape="\\"))
    query = query.order_by(ServerPost.publish_time.desc(), ServerPost.id.desc())
    rows, total = page_of(session, query, page_num=page_num, page_size=page_size)
    items = [server_object(p, display=display) for p in rows]
    return page_result(items, total=total, page_num=page_num, page_size=page_size)


def list_tags(session: Session, *, section_code: str | None, limit: int) -> list[dict[str, Any]]:
    """Legacy tag objects (tagId, name, sectionCode, postCount), most used first."""
    tags = select(Tag).where(Tag.is_delete.is_(False))
    if section_code:
        tags = tags.where(Tag.section_code == section_code)
    rows = list(session.scalars(tags))
    counts = _tag_counts(session, section_code)
    objects: list[dict[str, Any]] = [
        {
            "tagId": t.id,
            "name": t.name,
            "sectionCode": t.section_code,
            "postCount": counts.get((t.section_code, t.name), 0),
        }
        for t in rows
    ]
    objects.sort(key=lambda o: (-o["postCount"], o["tagId"]))
    return objects[:limit]


def _tag_counts(session: Session, section_code: str | None) -> dict[tuple[str, str], int]:
    """Listed posts per (section, tag name), expanding the JSON tag lists in the database."""
    # Both set-returning functions name their output column "value" and may read the outer row.
    expand = func.json_each if session.get_bind().dialect.name == "sqlite" else func.json_array_elements_text
    each = expand(ResourcePost.tags).table_valued("value")
    query = (
        select(ResourcePost.section_code, each.c.value, func.count())
        .select_from(ResourcePost)
        .join(each, true())
        .where(listed_clause())
        .group_by(ResourcePost.section_code, each.c.value)
    )
    if section_code:
        query = query.where(ResourcePost.section_code == section_code)

    def counts() -> dict[tuple[str, str], int]:
        rows: Sequence[Row[str, str, int]] = session.execute(query).all()
        return {(s, name): n for s, name, n in rows}

    return cached(session, ("tag_counts", section_code), counts)
