"""The records hanging off a resource post: authors, links, relations, versions, files,
ratings, comments and per-day counters."""

from __future__ import annotations

import datetime as dt

from sqlalchemy import JSON, Date, ForeignKey, Index, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from models.base import Base
from models.types import BigId, big_id, id_pk, str32, utc_time, utcnow

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
        Index("ix_resource_file_sha1", "sha1"), Index("ix_resource_file_sha256", "sha256"),
        Index("ix_resource_file_sha512", "sha512"),
    )

    id: Mapped[id_pk]
    post_id: Mapped[big_id] = mapped_column(ForeignKey("resource_post.id"), index=True)
    title: Mapped[str] = mapped_column(String(255))
    file_name: Mapped[str | None] = mapped_column(String(255))
    file_version: Mapped[str | None] = mapped_column(String(64))
    resource_versions: Mapped[list] = mapped_column(JSON, default=list)
    run_platform: Mapped[str | None] = mapped_column(String(64))
    environment_side: Mapped[str] = mapped_column(String(8), default="BOTH")
    storage_type: Mapped[str] = mapped_column(String(16), default="DIRECT_UPLOAD")
    object_key: Mapped[str | None] = mapped_column(String(512))
    external_url: Mapped[str | None] = mapped_column(String(1024))
    down_info: Mapped[list] = mapped_column(JSON, default=list)
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


class Comment(Base):
    """A comment or reply on any entity (resource post, discussion post, moment ...)."""

    __tablename__ = "comment"
    __table_args__ = (Index("ix_comment_entity", "entity_type", "entity_id", "create_time"),)

    id: Mapped[id_pk]
    entity_type: Mapped[str32]
    entity_id: Mapped[big_id]
    user_id: Mapped[big_id] = mapped_column(ForeignKey("app_user.id"))
    content: Mapped[str] = mapped_column(Text)
    parent_id: Mapped[int | None] = mapped_column(BigId)
    reply_count: Mapped[int] = mapped_column(default=0)
    like_count: Mapped[int] = mapped_column(default=0)
    status: Mapped[str] = mapped_column(String(16), default="NORMAL")
    create_time: Mapped[utc_time] = mapped_column(default=utcnow)
    is_delete: Mapped[bool] = mapped_column(default=False)


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
