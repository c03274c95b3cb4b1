"""Reads of resource posts: batch, featured, detail, description, authors, links, and the
per-resource lists (comments paged, rating aggregate, relations, approved versions).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from decimal import Decimal

from sqlalchemy import ColumnElement, Float, SQLColumnExpression, cast, func, select
from sqlalchemy.orm import Session

from models.catalog.queries import authors_of, cached, get_listed_or_raise, listed_clause
from models.catalog.reads import details_by_ids, summaries_by_ids
from models.catalog.records import relation_vo
from models.catalog.tables import Rating, ResourcePost, ResourceRelation, ResourceVersion
from models.catalog.vos import (
    AuthorBrief,
    ModDescription,
    ModDetail,
    ModSummary,
    PostRelations,
    RatingAggregate,
    Relation,
    Version,
)
from modhub.core.display import Display
from modhub.core.errors import ApiError
from modhub.core.sanitize import clean_html

FEATURED = 20


def get_batch(session: Session, *, post_ids: list[int], display: Display) -> list[ModSummary | None]:
    """ModSummaryVO per requested id in request order; null where the id is not listed (one
    statement on PostgreSQL)."""
    found = summaries_by_ids(session, post_ids=post_ids, display=display)
    return [found.get(i) for i in post_ids]


def _epoch_days(session: Session, column: SQLColumnExpression[dt.datetime]) -> ColumnElement[float | Decimal]:
    if session.get_bind().dialect.name == "sqlite":
        return func.julianday(column)
    return func.extract("epoch", column) / 86400.0


def featured_score(session: Session) -> ColumnElement[float | Decimal]:
    """ln(1 + downloads) + 2 ln(1 + likes) - (days since update) / 30, as an ORDER BY expression.

    The age term is written as +updateDay / 30: it differs from -age / 30 by a constant, so the
    order is the same and needs no clock.
    """
    downloads = cast(ResourcePost.download_count, Float)
    likes = cast(ResourcePost.like_count, Float)
    return (
        func.ln(1.0 + downloads)
        + 2.0 * func.ln(1.0 + likes)
        + _epoch_days(session, ResourcePost.update_time) / 30.0
    )


def list_featured(session: Session, *, display: Display) -> list[ModSummary]:
    """The top 20 listed resources by the featured score (ties: newest id first).

    The ranking scans every public post, so the ranked ids are a cached aggregate; the posts
    themselves are read fresh (one that stopped being public meanwhile is left out).
    """
    ids = cached(
        session,
        "featured_ids",
        lambda: list(
            session.scalars(
                select(ResourcePost.id)
                .where(listed_clause())
                .order_by(featured_score(session).desc(), ResourcePost.id.desc())
                .limit(FEATURED)
            )
        ),
    )
    found = summaries_by_ids(session, post_ids=ids, display=display)
    return [found[i] for i in ids if i in found]


def get_details(
    session: Session, *, post_ids: list[int], display: Display, today: dt.date
) -> dict[int, ModDetail | None]:
    """ModDetailVO by requested id, with its last 24h/7d/30d statistics; None where the id is not
    listed (one statement on PostgreSQL)."""
    found = details_by_ids(session, post_ids=post_ids, display=display, today=today)
    return {i: found.get(i) for i in post_ids}


def get_detail(session: Session, *, post_id: int, display: Display, today: dt.date) -> ModDetail:
    """ModDetailVO of a listed resource, with its last 24h/7d/30d statistics."""
    found = details_by_ids(session, post_ids=[post_id], display=display, today=today).get(post_id)
    if found is None:
        raise ApiError("RECORD_NOT_FOUND", f"resource {post_id} does not exist")
    return found


def list_authors(session: Session, *, post_id: int, display: Display) -> list[AuthorBrief]:
    """AuthorBriefVO of a listed resource's authors, OWNER first."""
    post = get_listed_or_raise(session, post_id=post_id)
    return authors_of(session, post_ids=[post.id], display=display).get(post.id, [])


def get_description(session: Session, *, post_id: int, display: Display) -> ModDescription:
    """ModDescriptionVO of a listed resource."""
    post = get_listed_or_raise(session, post_id=post_id)
    return {
        "postId": post.id,
        "content": clean_html(post.description_html),
        "mdContent": post.description_md,
        "updateTime": display.time(post.update_time),
    }


def get_rating(session: Session, *, post_id: int) -> RatingAggregate:
    """RatingAggregateVO: average (two decimals), rater count, all five stars present."""
    get_listed_or_raise(session, post_id=post_id)
    rows = session.execute(
        select(Rating.score, func.count()).where(Rating.post_id == post_id).group_by(Rating.score)
    ).all()
    stars = {str(s): 0 for s in range(1, 6)}
    for score, count in rows:
        if 1 <= score <= 5:
            stars[str(score)] = count
    total = sum(stars.values())
    points = sum(int(k) * v for k, v in stars.items())
    return {
        "averageScore": round(points / total, 2) if total else 0.0,
        "totalCount": total,
        "starDistribution": stars,
    }


def list_relations(session: Session, *, post_id: int) -> list[Relation]:
    """RelationVO of a listed resource, grouped by relation type, then by sort order."""
    get_listed_or_raise(session, post_id=post_id)
    rows = session.scalars(
        select(ResourceRelation)
        .where(ResourceRelation.post_id == post_id)
        .order_by(ResourceRelation.relation_type, ResourceRelation.sort_order, ResourceRelation.id)
    )
    return [relation_vo(r) for r in rows]


def relations_batch(session: Session, *, post_ids: list[int]) -> list[PostRelations | None]:
    """Per post id, in request order: {postId, relations} of a listed resource (its RelationVO, as
    list_relations orders them), or null. Two queries for up to 50 ids."""
    listed = set(
        session.scalars(select(ResourcePost.id).where(ResourcePost.id.in_(set(post_ids)), listed_clause()))
    )
    rows: Iterable[ResourceRelation] = (
        session.scalars(
            select(ResourceRelation)
            .where(ResourceRelation.post_id.in_(listed))
            .order_by(ResourceRelation.relation_type, ResourceRelation.sort_order, ResourceRelation.id)
        )
        if listed
        else []
    )
    by_post: dict[int, list[Relation]] = {post_id: [] for post_id in listed}
    for row in rows:
        by_post[row.post_id].append(relation_vo(row))
    return [{"postId": i, "relations": by_post[i]} if i in listed else None for i in post_ids]


def list_versions(session: Session, *, post_id: int, display: Display) -> list[Version]:
    """VersionVO of the approved versions of a listed resource, versionNumber descending."""
    get_listed_or_raise(session, post_id=post_id)
    rows = session.scalars(
        select(ResourceVersion)
        .where(ResourceVersion.post_id == post_id, ResourceVersion.approved.is_(True))
        .order_by(ResourceVersion.version_number.desc(), ResourceVersion.id.desc())
    )
    return [
        {
            "postId": v.version_post_id,
            "versionNumber": v.version_number,
            "resourceVersion": v.resource_version,
            "updateCommit": v.update_commit,
            "publishTime": display.time(v.publish_time),
        }
        for v in rows
    ]
