"""Community tables: posts (discussion and question share one table by post_type), answers,
moments, follows, reactions (likes and collects) and the community part of a user profile.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from sqlalchemy import JSON, ForeignKey, Index, Numeric, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from models.base import Base
from models.types import BigId, UTCDateTime, big_id, id_pk, str32, str64, utc_time, utcnow

DISCUSS, QUESTION, MOMENT, RESOURCE, COMMENT = (
    "DISCUSS_POST",
    "QUESTION_POST",
    "USER_MOMENT",
    "RESOURCE_POST",
    "POST_COMMENT",
)
POST_TYPES = (DISCUSS, QUESTION)
QUESTION_STATUSES = ("OPEN", "RESOLVED", "CLOSED")
MOMENT_TYPES = ("TEXT", "IMAGE", "SHARE")
REACTIONS = ("LIKE", "COLLECT")


class CommunityPost(Base):
    """A discussion or question post; question-only columns stay null on discussion posts.

    questionStatus OPEN -> RESOLVED when the author accepts an answer (acceptedAnswerId set,
    isResolved true), OPEN -> CLOSED by the author; isResolved is derived from the status.
    """

    __tablename__ = "community_post"
    __table_args__ = (
        Index("ix_community_post_listing", "post_type", "is_delete", "publish_time"),
        Index("ix_community_post_author", "user_id", "post_type", "publish_time"),
    )

    id: Mapped[id_pk]
    post_type: Mapped[str32]
    section_code: Mapped[str64]
    user_id: Mapped[int] = mapped_column(ForeignKey("app_user.id"))
    title: Mapped[str] = mapped_column(String(255))
    summary: Mapped[str | None] = mapped_column(Text)
    content_html: Mapped[str | None] = mapped_column(Text)
    content_md: Mapped[str | None] = mapped_column(Text)
    question_status: Mapped[str | None] = mapped_column(String(16))
    accepted_answer_id: Mapped[int | None] = mapped_column(BigId)
    vote_score: Mapped[int] = mapped_column(default=0)
    difficulty: Mapped[int | None]
    tags: Mapped[list[str]] = mapped_column(JSON, default=list)
    reward_amount: Mapped[Decimal | None] = mapped_column(Numeric(20, 4))
    reward_currency: Mapped[str | None] = mapped_column(String(16))
    views_count: Mapped[int] = mapped_column(default=0)
    like_count: Mapped[int] = mapped_column(default=0)
    comment_count: Mapped[int] = mapped_column(default=0)
    collection_count: Mapped[int] = mapped_column(default=0)
    answer_count: Mapped[int] = mapped_column(default=0)
    publish_time: Mapped[utc_time] = mapped_column(default=utcnow)
    update_time: Mapped[utc_time] = mapped_column(default=utcnow)
    is_delete: Mapped[bool] = mapped_column(default=False)
    delete_time: Mapped[dt.datetime | None] = mapped_column(UTCDateTime())


class Answer(Base):
    """An answer to a question post, optionally nested under another answer."""

    __tablename__ = "community_answer"
    __table_args__ = (Index("ix_community_answer_question", "question_id", "is_delete"),)

    id: Mapped[id_pk]
    question_id: Mapped[big_id] = mapped_column(ForeignKey("community_post.id"))
    parent_answer_id: Mapped[int | None] = mapped_column(BigId)
    user_id: Mapped[int] = mapped_column(ForeignKey("app_user.id"))
    content_html: Mapped[str | None] = mapped_column(Text)
    content_md: Mapped[str | None] = mapped_column(Text)
    upvote_count: Mapped[int] = mapped_column(default=0)
    downvote_count: Mapped[int] = mapped_column(default=0)
    comment_count: Mapped[int] = mapped_column(default=0)
    create_time: Mapped[utc_time] = mapped_column(default=utcnow)
    is_delete: Mapped[bool] = mapped_column(default=False)


class Moment(Base):
    """A user moment: a short TEXT, IMAGE or SHARE status post."""

    __tablename__ = "community_moment"
    __table_args__ = (
        Index("ix_community_moment_listing", "is_delete", "create_time"),
        Index("ix_community_moment_user", "user_id", "create_time"),
    )

    id: Mapped[id_pk]
    user_id: Mapped[int] = mapped_column(ForeignKey("app_user.id"))
    moment_type: Mapped[str] = mapped_column(String(16), default="TEXT")
    content: Mapped[str] = mapped_column(Text)
    like_count: Mapped[int] = mapped_column(default=0)
    comment_count: Mapped[int] = mapped_column(default=0)
    collect_count: Mapped[int] = mapped_column(default=0)
    view_count: Mapped[int] = mapped_column(default=0)
    create_time: Mapped[utc_time] = mapped_column(default=utcnow)
    is_delete: Mapped[bool] = mapped_column(default=False)


class Follow(Base):
    """follower_id follows followee_id (one row per pair; unfollow deletes it)."""

    __tablename__ = "community_follow"
    __table_args__ = (
        UniqueConstraint("follower_id", "followee_id", name="uq_community_follow_pair"),
        Index("ix_community_follow_followee", "followee_id", "create_time"),
    )

    id: Mapped[id_pk]
    follower_id: Mapped[int] = mapped_column(ForeignKey("app_user.id"))
    followee_id: Mapped[int] = mapped_column(ForeignKey("app_user.id"))
    create_time: Mapped[utc_time] = mapped_column(default=utcnow)


class Reaction(Base):
    """A like or collect of one entity by one user (one row per kind, entity and user)."""

    __tablename__ = "community_reaction"
    __table_args__ = (
        UniqueConstraint("kind", "entity_type", "entity_id", "user_id", name="uq_community_reaction_once"),
    )

    id: Mapped[id_pk]
    kind: Mapped[str] = mapped_column(String(16))
    entity_type: Mapped[str32]
    entity_id: Mapped[big_id]
    user_id: Mapped[int] = mapped_column(ForeignKey("app_user.id"))
    create_time: Mapped[utc_time] = mapped_column(default=utcnow)


class CommunityProfile(Base):
    """The community part of a user's profile: cover, title, frame and follow counters."""

    __tablename__ = "community_profile"

    user_id: Mapped[int] = mapped_column(BigId, ForeignKey("app_user.id"), primary_key=True)
    cover_image: Mapped[str | None] = mapped_column(String(512))
    equipped_title_id: Mapped[int | None] = mapped_column(BigId)
    avatar_frame_id: Mapped[int | None] = mapped_column(BigId)
    following_count: Mapped[int] = mapped_column(default=0)
    follower_count: Mapped[int] = mapped_column(default=0)


class Notification(Base):
    """A notification (MessageVO) of one recipient, written in the transaction of its cause."""

    __tablename__ = "community_notification"
    __table_args__ = (
        Index("ix_community_notification_unread", "user_id", "read_flag"),
        Index("ix_community_notification_listing", "user_id", "create_time"),
    )

    id: Mapped[id_pk]
    user_id: Mapped[int] = mapped_column(ForeignKey("app_user.id"))
    message_type: Mapped[str] = mapped_column(String(16))
    title: Mapped[str | None] = mapped_column(String(255))
    content: Mapped[str | None] = mapped_column(Text)
    sender_id: Mapped[int | None] = mapped_column(BigId)
    entity_type: Mapped[str | None] = mapped_column(String(32))
    entity_id: Mapped[int | None] = mapped_column(BigId)
    read_flag: Mapped[bool] = mapped_column(default=False)
    create_time: Mapped[utc_time] = mapped_column(default=utcnow)


class PrivateMessage(Base):
    """A private message; status DELIVERED, REVIEW (held for manual review) or BLOCKED."""

    __tablename__ = "community_private_message"
    __table_args__ = (Index("ix_community_private_message_pair", "recipient_id", "sender_id", "create_time"),)

    id: Mapped[id_pk]
    sender_id: Mapped[int] = mapped_column(ForeignKey("app_user.id"))
    recipient_id: Mapped[int] = mapped_column(ForeignKey("app_user.id"))
    content: Mapped[str] = mapped_column(Text)
    status: Mapped[str] = mapped_column(String(16), default="DELIVERED")
    has_sensitive_words: Mapped[bool] = mapped_column(default=False)
    create_time: Mapped[utc_time] = mapped_column(default=utcnow)


class UserBlock(Base):
    """blocker_id blocks blocked_id: the blocked user cannot message the blocker."""

    __tablename__ = "community_user_block"
    __table_args__ = (UniqueConstraint("blocker_id", "blocked_id", name="uq_community_user_block_pair"),)

    id: Mapped[id_pk]
    blocker_id: Mapped[int] = mapped_column(ForeignKey("app_user.id"))
    blocked_id: Mapped[int] = mapped_column(ForeignKey("app_user.id"))
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
