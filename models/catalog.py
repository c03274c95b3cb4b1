"""Resource posts and server posts, and the ModSummaryVO every resource listing returns."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from sqlalchemy import JSON, ForeignKey, Index, Numeric, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from models.base import Base
from models.types import UTCDateTime, id_pk, str64, utc_time, utcnow
from modhub.display import display_url, format_time

ENVIRONMENTS = ("REQUIRED", "OPTIONAL", "NO_NEED", "UNKNOWN")
RESOURCE_STATES = ("ACTIVE", "SEMI_ABANDONED", "ABANDONED", "UNKNOWN")


class ResourcePost(Base):
    """A resource post (a mod, modpack, map ...) with its counters and version chain.

    `status` is DRAFT, PENDING (in approval) or PUBLISHED; only PUBLISHED, PUBLIC and not deleted
    posts are listed. Counters are kept on the row so listings need no aggregation.
    """

    __tablename__ = "resource_post"
    __table_args__ = (
        Index("ix_resource_post_sync", "update_time", "id"),
        Index("ix_resource_post_listing", "section_code", "status", "is_delete"),
    )

    id: Mapped[id_pk]
    section_code: Mapped[str64]
    user_id: Mapped[int | None] = mapped_column(ForeignKey("app_user.id"), index=True)
    main_name: Mapped[str] = mapped_column(String(255))
    sub_name: Mapped[str | None] = mapped_column(String(255))
    introduction: Mapped[str | None] = mapped_column(String(500))
    abbr_name: Mapped[str | None] = mapped_column(String(128))
    cover_image: Mapped[str | None] = mapped_column(String(512))
    resource_type: Mapped[str | None] = mapped_column(String(64))
    main_categories: Mapped[list] = mapped_column(JSON, default=list)
    preset_category: Mapped[str | None] = mapped_column(String(32))
    run_platform: Mapped[str | None] = mapped_column(String(64))
    client_environment: Mapped[str] = mapped_column(String(16), default="UNKNOWN")
    server_environment: Mapped[str] = mapped_column(String(16), default="UNKNOWN")
    client_install_path: Mapped[str | None] = mapped_column(String(255))
    server_install_path: Mapped[str | None] = mapped_column(String(255))
    server_installable: Mapped[bool | None]
    resource_version: Mapped[str | None] = mapped_column(String(64))
    resource_state: Mapped[str] = mapped_column(String(16), default="ACTIVE")
    is_paid: Mapped[bool] = mapped_column(default=False)
    price_amount: Mapped[Decimal | None] = mapped_column(Numeric(20, 4))
    price_currency_code: Mapped[str | None] = mapped_column(String(3))
    content_copyright: Mapped[str | None] = mapped_column(Text)
    resource_copyright: Mapped[str | None] = mapped_column(Text)
    creation_type: Mapped[str | None] = mapped_column(String(32))
    source_state: Mapped[str | None] = mapped_column(String(16))
    ref_link: Mapped[str | None] = mapped_column(Text)
    visibility: Mapped[str] = mapped_column(String(16), default="PUBLIC")
    download_permission: Mapped[str] = mapped_column(String(16), default="PUBLIC")
    comment_permission: Mapped[str] = mapped_column(String(16), default="EVERYONE")
    post_version: Mapped[int] = mapped_column(default=1)
    parent_post_id: Mapped[int | None] = mapped_column(index=True)
    display_images: Mapped[list] = mapped_column(JSON, default=list)
    enable_version_grouping: Mapped[bool | None]
    description_html: Mapped[str | None] = mapped_column(Text)
    description_md: Mapped[str | None] = mapped_column(Text)
    install_script: Mapped[str | None] = mapped_column(Text)
    tags: Mapped[list] = mapped_column(JSON, default=list)
    status: Mapped[str] = mapped_column(String(16), default="PUBLISHED")
    views_count: Mapped[int] = mapped_column(default=0)
    download_count: Mapped[int] = mapped_column(default=0)
    like_count: Mapped[int] = mapped_column(default=0)
    collection_count: Mapped[int] = mapped_column(default=0)
    comment_count: Mapped[int] = mapped_column(default=0)
    rating_count: Mapped[int] = mapped_column(default=0)
    rating_total: Mapped[int] = mapped_column(default=0)
    publish_time: Mapped[dt.datetime | None] = mapped_column(UTCDateTime())
    update_time: Mapped[utc_time] = mapped_column(default=utcnow)
    is_delete: Mapped[bool] = mapped_column(default=False)
    delete_time: Mapped[dt.datetime | None] = mapped_column(UTCDateTime())

    @property
    def average_rating(self) -> float:
        """Mean score, 0 to 5 with two decimals, 0 without ratings."""
        return round(self.rating_total / self.rating_count, 2) if self.rating_count else 0.0

    @property
    def listed(self) -> bool:
        """True when the post may appear in public results."""
        return self.status == "PUBLISHED" and self.visibility == "PUBLIC" and not self.is_delete


class ServerPost(Base):
    """A server post (lobby server) with the last status its heartbeat reported."""

    __tablename__ = "server_post"

    id: Mapped[id_pk]
    section_code: Mapped[str64]
    user_id: Mapped[int | None] = mapped_column(ForeignKey("app_user.id"), index=True)
    main_name: Mapped[str] = mapped_column(String(255))
    server_ip: Mapped[str | None] = mapped_column(String(255))
    server_port: Mapped[int | None]
    query_enabled: Mapped[bool] = mapped_column(default=True)
    query_type: Mapped[str | None] = mapped_column(String(32))
    current_players: Mapped[int] = mapped_column(default=0)
    max_players: Mapped[int] = mapped_column(default=0)
    server_status: Mapped[str] = mapped_column(String(16), default="UNKNOWN")
    server_motd: Mapped[str | None] = mapped_column(Text)
    latency_ms: Mapped[int | None]
    last_heartbeat_time: Mapped[dt.datetime | None] = mapped_column(UTCDateTime())
    publish_time: Mapped[dt.datetime | None] = mapped_column(UTCDateTime())
    update_time: Mapped[utc_time] = mapped_column(default=utcnow)
    is_delete: Mapped[bool] = mapped_column(default=False)


def detail_url(post_id: int, site_url: str) -> str:
    """Public page of a resource; empty when the site URL is not configured."""
    return f"{site_url}/resource/{post_id}" if site_url else ""


def mod_summary(post: ResourcePost, *, settings, authors: list[dict] | None = None) -> dict:
    """ModSummaryVO of a resource post (authors are AuthorBriefVO dicts, loaded by the caller)."""
    zone, cdn = settings.time_zone, settings.cdn_base_url
    return {
        "postId": post.id, "mainName": post.main_name, "subName": post.sub_name,
        "introduction": post.introduction, "abbrName": post.abbr_name,
        "coverImageUrl": display_url(post.cover_image, cdn),
        "detailUrl": detail_url(post.id, settings.site_url), "sectionCode": post.section_code,
        "mainCategories": list(post.main_categories or [])[:5],
        "presetCategory": post.preset_category, "resourceType": post.resource_type,
        "runPlatform": post.run_platform, "clientEnvironment": post.client_environment,
        "serverEnvironment": post.server_environment,
        "clientInstallPath": post.client_install_path,
        "serverInstallPath": post.server_install_path,
        "serverInstallable": post.server_installable, "resourceVersion": post.resource_version,
        "resourceState": post.resource_state, "authors": authors or [], "isPaid": post.is_paid,
        "priceAmount": float(post.price_amount) if post.price_amount is not None else None,
        "priceCurrencyCode": post.price_currency_code, "viewsCount": post.views_count,
        "downloadCount": post.download_count, "likeCount": post.like_count,
        "collectionCount": post.collection_count, "commentCount": post.comment_count,
        "averageRating": post.average_rating, "ratingCount": post.rating_count,
        "publishTime": format_time(post.publish_time, zone),
        "updateTime": format_time(post.update_time, zone),
    }
