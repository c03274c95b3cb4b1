"""Tables of authoring: drafts (NEW and EDIT) with their review state, review decisions, and the
files a user uploaded for their drafts."""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import JSON, ForeignKey, Index, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from models.base import Base
from models.types import BigId, UTCDateTime, id_pk, str32, utc_time, utcnow

# Review states of a draft (see the contract's authoring section).
DRAFT, PENDING_REVIEW, REJECTED, PUBLISHED = "DRAFT", "PENDING_REVIEW", "REJECTED", "PUBLISHED"
STATES = (DRAFT, PENDING_REVIEW, REJECTED, PUBLISHED)
NEW, EDIT = "NEW", "EDIT"


class ResourceDraft(Base):
    """A draft of a proxy user: NEW (becomes its own resource post) or EDIT (of parent_post_id).

    The id is the id of the draft's resource_post row (status DRAFT, never listed), so a draft id
    and a post id never collide. `content` holds the saved fields of BaseOpenApiResourceSaveParam
    (normalised, api names); an EDIT draft holds only the fields it changes.
    """

    __tablename__ = "resource_draft"
    __table_args__ = (Index("ix_resource_draft_queue", "state", "submitted_at"),)

    id: Mapped[int] = mapped_column(BigId, ForeignKey("resource_post.id"), primary_key=True)
    user_id: Mapped[int] = mapped_column(BigId, ForeignKey("app_user.id"), index=True)
    kind: Mapped[str] = mapped_column(String(8))
    state: Mapped[str] = mapped_column(String(16), default=DRAFT)
    parent_post_id: Mapped[int | None] = mapped_column(BigId, ForeignKey("resource_post.id"), index=True)
    base_version: Mapped[int | None]
    content: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    reject_reason: Mapped[str | None] = mapped_column(Text)
    submitted_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime())
    reviewed_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime())
    reviewer_id: Mapped[int | None] = mapped_column(BigId)
    create_time: Mapped[utc_time] = mapped_column(default=utcnow)
    update_time: Mapped[utc_time] = mapped_column(default=utcnow)


class ReviewDecision(Base):
    """One moderator decision on a draft (APPROVE or REJECT with its reason)."""

    __tablename__ = "review_decision"

    id: Mapped[id_pk]
    draft_id: Mapped[int] = mapped_column(BigId, ForeignKey("resource_draft.id"), index=True)
    reviewer_id: Mapped[int | None] = mapped_column(BigId)
    action: Mapped[str32]
    reason: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[utc_time] = mapped_column(default=utcnow)


class DraftFile(Base):
    """A file a user uploaded for their drafts (stored content-addressed by sha256); drafts refer
    to it by id in directFileId, coverFileId and images."""

    __tablename__ = "draft_file"

    id: Mapped[id_pk]
    user_id: Mapped[int] = mapped_column(BigId, ForeignKey("app_user.id"), index=True)
    object_key: Mapped[str] = mapped_column(String(64))
    file_name: Mapped[str] = mapped_column(String(255))
    content_type: Mapped[str | None] = mapped_column(String(128))
    size: Mapped[int] = mapped_column(BigId)
    sha1: Mapped[str] = mapped_column(String(40))
    sha256: Mapped[str] = mapped_column(String(64))
    sha512: Mapped[str] = mapped_column(String(128))
    create_time: Mapped[utc_time] = mapped_column(default=utcnow)
