"""Per-resource lists: comments (paged), rating aggregate, relations and approved versions."""

from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from models.catalog_queries import check_page, get_listed_or_raise, page_result
from models.identity import User
from models.resource_parts import Comment, Rating, ResourceRelation, ResourceVersion
from modhub.display import display_url, format_time
from modhub.sanitize import clean_html

RESOURCE_ENTITY = "RESOURCE_POST"


def comment_vo(comment: Comment, user: User | None, *, settings) -> dict:
    """CommentVO of a comment and its author."""
    return {"commentId": comment.id, "userId": comment.user_id,
            "userName": (user.login_name or user.username) if user else None,
            "avatarUrl": display_url(user.avatar, settings.cdn_base_url) if user else None,
            "content": clean_html(comment.content), "parentId": comment.parent_id,
            "replyCount": comment.reply_count, "likeCount": comment.like_count,
            "createTime": format_time(comment.create_time, settings.time_zone)}


def list_comments(session: Session, *, post_id: int, page_num: int, page_size: int, settings) -> dict:
    """PageResult<CommentVO> of a listed resource: NORMAL, not deleted, newest first."""
    get_listed_or_raise(session, post_id=post_id)
    offset = check_page(page_num=page_num, page_size=page_size)
    visible = (Comment.entity_type == RESOURCE_ENTITY, Comment.entity_id == post_id,
               Comment.status == "NORMAL", Comment.is_delete.is_(False))
    total = session.scalar(select(func.count()).select_from(Comment).where(*visible))
    rows = session.execute(
        select(Comment, User).outerjoin(User, (User.id == Comment.user_id) & User.is_delete.is_(False))
        .where(*visible).order_by(Comment.create_time.desc(), Comment.id.desc())
        .offset(offset).limit(page_size)).all() if total > offset else []
    items = [comment_vo(c, u, settings=settings) for c, u in rows]
    return page_result(items, total=total, page_num=page_num, page_size=page_size)


def get_rating(session: Session, *, post_id: int) -> dict:
    """RatingAggregateVO: average (two decimals), rater count, all five stars present."""
    get_listed_or_raise(session, post_id=post_id)
    rows = session.execute(select(Rating.score, func.count()).where(Rating.post_id == post_id)
                           .group_by(Rating.score)).all()
    stars = {str(s): 0 for s in range(1, 6)}
    for score, count in rows:
        if 1 <= score <= 5:
            stars[str(score)] = count
    total = sum(stars.values())
    points = sum(int(k) * v for k, v in stars.items())
    return {"averageScore": round(points / total, 2) if total else 0.0, "totalCount": total,
            "starDistribution": stars}


def relation_vo(rel: ResourceRelation) -> dict:
    """RelationVO of a relation (target left null: fetch targets with the batch operation)."""
    return {"relationType": rel.relation_type, "targetPostId": rel.target_post_id, "target": None,
            "isRequired": rel.is_required, "sortOrder": rel.sort_order, "dataSource": rel.data_source}


def list_relations(session: Session, *, post_id: int) -> list[dict]:
    """RelationVO of a listed resource, grouped by relation type, then by sort order."""
    get_listed_or_raise(session, post_id=post_id)
    rows = session.scalars(select(ResourceRelation).where(ResourceRelation.post_id == post_id)
                           .order_by(ResourceRelation.relation_type, ResourceRelation.sort_order,
                                     ResourceRelation.id))
    return [relation_vo(r) for r in rows]


def list_versions(session: Session, *, post_id: int, zone: str) -> list[dict]:
    """VersionVO of the approved versions of a listed resource, versionNumber descending."""
    get_listed_or_raise(session, post_id=post_id)
    rows = session.scalars(select(ResourceVersion)
                           .where(ResourceVersion.post_id == post_id, ResourceVersion.approved.is_(True))
                           .order_by(ResourceVersion.version_number.desc(), ResourceVersion.id.desc()))
    return [{"postId": v.version_post_id, "versionNumber": v.version_number,
             "resourceVersion": v.resource_version, "updateCommit": v.update_commit,
             "publishTime": format_time(v.publish_time, zone)} for v in rows]
