"""Mapped classes of the catalogue: resource and server posts, the records hanging off a resource
(authors, links, relations, versions, files, ratings, comments, daily counters) and the taxonomy
(sections, run platforms, categories, tags).
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from sqlalchemy import JSON, Date, ForeignKey, Index, Numeric, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from models.base import Base
from models.types import BigId, UTCDateTime, big_id, id_pk, str32, str64, str128, utc_time, utcnow

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
    main_categories: Mapped[list[str]] = mapped_column(JSON, default=list)
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
    display_images: Mapped[list[str]] = mapped_column(JSON, default=list)
    enable_version_grouping: Mapped[bool | None]
    description_html: Mapped[str | None] = mapped_column(Text)
    description_md: Mapped[str | None] = mapped_column(Text)
    install_script: Mapped[str | None] = mapped_column(Text)
    tags: Mapped[list[str]] = mapped_column(JSON, default=list)
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


AUTHOR_ROLES = ("OWNER", "COLLABORATOR", "CONTRIBUTOR")


class ResourceAuthor(Base):
    """An author of a resource, ordered by role then sort order."""

    __tablename__ = "resource_author"
    __table_args__ = (UniqueConstraint("post_id", "user_id", name="uq_resource_author_post_user"),)

    id: Mapped[id_pk]
    post_id: Mapped[big_id] = mapped_column(ForeignKey("resource_post.id"), index=True)
    user_id: Mapped[big_id] = mapped_column(ForeignKey("app_user.id"))
    role: Mapped[str] = mapped_column(String(16), default="OWNER")
    sort_order: Mapped[int] = mapped_column(default=0)


class ResourceLink(Base):
    """A structured external link of a resource (homepage, source, wiki ...)."""

    __tablename__ = "resource_link"

    id: Mapped[id_pk]
    post_id: Mapped[big_id] = mapped_column(ForeignKey("resource_post.id"), index=True)
    link_type: Mapped[str32]
    url: Mapped[str] = mapped_column(String(1024))
    label: Mapped[str | None] = mapped_column(String(128))
    sort_order: Mapped[int] = mapped_column(default=0)


class ResourceRelation(Base):
    """A relation from one resource to another (dependency, incompatible, recommendation ...)."""

    __tablename__ = "resource_relation"

    id: Mapped[id_pk]
    post_id: Mapped[big_id] = mapped_column(ForeignKey("resource_post.id"), index=True)
    relation_type: Mapped[str32]
    target_post_id: Mapped[big_id]
    is_required: Mapped[bool] = mapped_column(default=False)
    sort_order: Mapped[int] = mapped_column(default=0)
    data_source: Mapped[str] = mapped_column(String(16), default="USER_DEFINED")


class ResourceVersion(Base):
    """One version of a resource's chain; only approved versions are shown."""

    __tablename__ = "resource_version"

    id: Mapped[id_pk]
    post_id: Mapped[big_id] = mapped_column(ForeignKey("resource_post.id"), index=True)
    version_post_id: Mapped[big_id]
    version_number: Mapped[int]
    resource_version: Mapped[str | None] = mapped_column(String(64))
    update_commit: Mapped[str | None] = mapped_column(Text)
    approved: Mapped[bool] = mapped_column(default=True)
    publish_time: Mapped[utc_time] = mapped_column(default=utcnow)


class ResourceFile(Base):
    """A downloadable file of a resource: on-site upload, external link or cloud-disk share."""

    __tablename__ = "resource_file"
    __table_args__ = (  # hash lookups of launchers (files/lookup, files/updates)
        Index("ix_resource_file_sha1", "sha1"),
        Index("ix_resource_file_sha256", "sha256"),
        Index("ix_resource_file_sha512", "sha512"),
    )

    id: Mapped[id_pk]
    post_id: Mapped[big_id] = mapped_column(ForeignKey("resource_post.id"), index=True)
    title: Mapped[str] = mapped_column(String(255))
    file_name: Mapped[str | None] = mapped_column(String(255))
    file_version: Mapped[str | None] = mapped_column(String(64))
    resource_versions: Mapped[list[str]] = mapped_column(JSON, default=list)
    run_platform: Mapped[str | None] = mapped_column(String(64))
    environment_side: Mapped[str] = mapped_column(String(8), default="BOTH")
    storage_type: Mapped[str] = mapped_column(String(16), default="DIRECT_UPLOAD")
    object_key: Mapped[str | None] = mapped_column(String(512))
    external_url: Mapped[str | None] = mapped_column(String(1024))
    # Imported download sources, JSON objects {type, name, url, code} as another system wrote
    # them; read defensively (models.files.records.down_info skips what is not an object).
    down_info: Mapped[list[object]] = mapped_column(JSON, default=list)
    file_size: Mapped[int | None] = mapped_column(BigId)
    sha1: Mapped[str | None] = mapped_column(String(40))
    sha256: Mapped[str | None] = mapped_column(String(64))
    sha512: Mapped[str | None] = mapped_column(String(128))
    file_status: Mapped[str] = mapped_column(String(16), default="NORMAL")
    download_count: Mapped[int] = mapped_column(default=0)
    sort_order: Mapped[int] = mapped_column(default=0)
    publish_time: Mapped[utc_time] = mapped_column(default=utcnow)
    update_time: Mapped[utc_time] = mapped_column(default=utcnow)
    is_delete: Mapped[bool] = mapped_column(default=False)


class Rating(Base):
    """One user's 1-5 star rating of a resource."""

    __tablename__ = "rating"
    __table_args__ = (UniqueConstraint("post_id", "user_id", name="uq_rating_post_user"),)

    id: Mapped[id_pk]
    post_id: Mapped[big_id] = mapped_column(ForeignKey("resource_post.id"), index=True)
    user_id: Mapped[big_id] = mapped_column(ForeignKey("app_user.id"))
    score: Mapped[int]
    create_time: Mapped[utc_time] = mapped_column(default=utcnow)


class DailyStat(Base):
    """Per-day view, download and collect counts of a resource (UTC days)."""

    __tablename__ = "resource_daily_stat"
    __table_args__ = (UniqueConstraint("post_id", "day", name="uq_resource_daily_stat_post_day"),)

    id: Mapped[id_pk]
    post_id: Mapped[big_id] = mapped_column(ForeignKey("resource_post.id"), index=True)
    day: Mapped[dt.date] = mapped_column(Date)
    views: Mapped[int] = mapped_column(default=0)
    downloads: Mapped[int] = mapped_column(default=0)
    collects: Mapped[int] = mapped_column(default=0)


class Section(Base):
    """A section (game); resource and server posts belong to one."""

    __tablename__ = "section"

    id: Mapped[id_pk]
    code: Mapped[str64] = mapped_column(unique=True)
    description: Mapped[str128]
    english_name: Mapped[str | None] = mapped_column(String(128))
    parent_code: Mapped[str | None] = mapped_column(String(64))
    icon: Mapped[str | None] = mapped_column(String(512))
    sort_order: Mapped[int] = mapped_column(default=0)
    enable: Mapped[bool] = mapped_column(default=True)
    server_post_enabled: Mapped[bool] = mapped_column(default=True)
    resource_post_enabled: Mapped[bool] = mapped_column(default=True)
    is_delete: Mapped[bool] = mapped_column(default=False)


class RunPlatform(Base):
    """A run platform (mod loader such as Forge or Fabric)."""

    __tablename__ = "run_platform"

    id: Mapped[id_pk]
    code: Mapped[str64] = mapped_column(unique=True)
    name: Mapped[str128]
    description: Mapped[str | None] = mapped_column(Text)
    icon: Mapped[str | None] = mapped_column(String(512))
    sort_order: Mapped[int] = mapped_column(default=0)
    enable: Mapped[bool] = mapped_column(default=True)
    is_delete: Mapped[bool] = mapped_column(default=False)


class Category(Base):
    """A category; top-level categories are resource types, their children main categories.

    `section_code` null means the category applies to every section.
    """

    __tablename__ = "category"

    id: Mapped[id_pk]
    code: Mapped[str64] = mapped_column(unique=True)
    name: Mapped[str128]
    description: Mapped[str | None] = mapped_column(Text)
    icon: Mapped[str | None] = mapped_column(String(512))
    parent_code: Mapped[str | None] = mapped_column(String(64), index=True)
    section_code: Mapped[str | None] = mapped_column(String(64), index=True)
    sort_order: Mapped[int] = mapped_column(default=0)
    is_delete: Mapped[bool] = mapped_column(default=False)


class Tag(Base):
    """A tag of a section, attached to resource posts by name."""

    __tablename__ = "tag"
    __table_args__ = (UniqueConstraint("section_code", "name", name="uq_tag_section_name"),)

    id: Mapped[id_pk]
    section_code: Mapped[str64]
    name: Mapped[str64]
    is_delete: Mapped[bool] = mapped_column(default=False)
