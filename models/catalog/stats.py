"""Statistics: time-segmented resource counters, section and resource totals, forum counters."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from zoneinfo import ZoneInfo

from sqlalchemy import BindParameter, Date, Select, bindparam, case, func, select
from sqlalchemy.orm import Session

from models.catalog.queries import cached, get_listed_or_raise, listed_clause
from models.catalog.tables import DailyStat, ResourcePost, ServerPost
from models.catalog.taxonomy import get_section_or_raise
from models.catalog.vos import ForumStats, ResourceStats, SectionStats, StatsBrief
from models.identity.tables import User
from modhub.core.display import Display

WINDOWS = (("24h", 0), ("7d", 6), ("30d", 29))  # days before today included in each window


def _since(label: str) -> BindParameter[dt.date]:
    return bindparam(f"since_{label}", type_=Date)


DAY = DailyStat.__table__.c  # table columns: a statement of them needs no ORM compilation
# The counters of every window (views, downloads, collects of 24h, 7d, 30d), summed over the
# rows of IN_WINDOWS: one pass over the last 30 days.
STATS_SUMS = tuple(
    func.coalesce(func.sum(case((DAY.day >= _since(label), column), else_=0)), 0)
    for label, _ in WINDOWS
    for column in (DAY.views, DAY.downloads, DAY.collects)
)
IN_WINDOWS = (DAY.day >= _since(WINDOWS[-1][0]), DAY.day <= bindparam("today", type_=Date))
# Built once (bound parameters: the post ids, today and the first day of each window), so a
# request only binds values.
STATS_BRIEFS = (
    select(DAY.post_id, *STATS_SUMS)
    .where(DAY.post_id.in_(bindparam("post_ids", expanding=True)), *IN_WINDOWS)
    .group_by(DAY.post_id)
)


def window_days(today: dt.date) -> dict[str, dt.date]:
    """The bound parameters of the windows (UTC days; 24h = today's counters): today and the
    first day of each window."""
    return {"today": today, **{f"since_{label}": today - dt.timedelta(days=back) for label, back in WINDOWS}}


def stats_briefs(session: Session, *, post_ids: list[int], today: dt.date) -> dict[int, StatsBrief]:
    """OpenApiStatsBriefVO of many posts in one query (UTC days; 24h = today's counters)."""
    rows = session.execute(STATS_BRIEFS, {"post_ids": list(set(post_ids)), **window_days(today)}).all()
    found = {row[0]: row[1:] for row in rows}
    return {pid: brief_of(found.get(pid)) for pid in post_ids}


BRIEF_NAMES = tuple(
    f"{kind}Last{label}" for label, _ in WINDOWS for kind in ("views", "downloads", "collects")
)


def brief_of(values: Sequence[int] | None) -> StatsBrief:
    """OpenApiStatsBriefVO of the counters in STATS_BRIEFS's order (every one 0 without data)."""
    return {name: int(values[i]) if values else 0 for i, name in enumerate(BRIEF_NAMES)}


def stats_brief(session: Session, *, post_id: int, today: dt.date) -> StatsBrief:
    """OpenApiStatsBriefVO of one post (every counter 0 without data)."""
    return stats_briefs(session, post_ids=[post_id], today=today)[post_id]


def resource_stats(session: Session, *, post_id: int) -> ResourceStats:
    """ResourceStatsDetailVO: lifetime counters of a listed resource."""
    post = get_listed_or_raise(session, post_id=post_id)
    return {
        "postId": post.id,
        "totalViews": post.views_count,
        "totalDownloads": post.download_count,
        "totalLikes": post.like_count,
        "totalCollects": post.collection_count,
        "totalComments": post.comment_count,
        "averageRating": post.average_rating,
    }


def section_stats(session: Session, *, section_code: str) -> SectionStats:
    """SectionStatsVO: counters summed over the section's listed resource posts."""
    get_section_or_raise(session, code=section_code)
    row = session.execute(
        select(
            func.count(),
            *(
                func.coalesce(func.sum(c), 0)
                for c in (
                    ResourcePost.views_count,
                    ResourcePost.download_count,
                    ResourcePost.like_count,
                    ResourcePost.collection_count,
                )
            ),
        ).where(listed_clause(), ResourcePost.section_code == section_code)
    ).one()
    return {
        "sectionCode": section_code,
        "postCount": row[0],
        "totalViews": int(row[1]),
        "totalDownloads": int(row[2]),
        "totalLikes": int(row[3]),
        "totalCollects": int(row[4]),
    }


def forum_stats(session: Session, *, now: dt.datetime, display: Display) -> ForumStats:
    """OpenApiForumStatsVo, a cached aggregate: statsTime says when the figures were computed."""
    return cached(
        session, ("forum_stats", display.time_zone), lambda: _forum_stats(session, now=now, display=display)
    )


def _forum_stats(session: Session, *, now: dt.datetime, display: Display) -> ForumStats:
    """OpenApiForumStatsVo: listed resource posts, live server posts, users, today's new posts.

    "Today" is the calendar day of the platform time zone. totalDiscussPosts stays null (not
    counted) until discussion posts are stored by this service.
    """
    local = now.astimezone(ZoneInfo(display.time_zone))
    day_start = local.replace(hour=0, minute=0, second=0, microsecond=0).astimezone(dt.UTC)

    def count(query: Select[int]) -> int:
        return session.execute(query).scalar_one()

    resources = count(select(func.count()).where(listed_clause()).select_from(ResourcePost))
    new_today = count(
        select(func.count())
        .select_from(ResourcePost)
        .where(listed_clause(), ResourcePost.publish_time >= day_start)
    )
    servers = count(select(func.count()).select_from(ServerPost).where(ServerPost.is_delete.is_(False)))
    users = count(select(func.count()).select_from(User).where(User.is_delete.is_(False)))
    return {
        "totalResourcePosts": resources,
        "totalDiscussPosts": None,
        "totalServerPosts": servers,
        "totalUsers": users,
        "todayNewPosts": new_today,
        "statsTime": display.time(now),
    }
