"""Delivery tables: entitlements (who may download a paid resource), consumer reports (download
failures, usefulness snapshots) with their distinct reporters, and reported startup commands."""

from __future__ import annotations

import datetime as dt

from sqlalchemy import ForeignKey, Index, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from models.base import Base
from models.types import BigId, UTCDateTime, id_pk, str32, utc_time, utcnow

FEEDBACK_KINDS = ("DOWNLOAD_FAILURE", "USER_FEEDBACK")


class Entitlement(Base):
    """A user owns a resource: granted by an operator (`modhub admin entitlement grant`) or, later,
    by a wallet purchase. Paid and MEMBERS resources are downloadable only by its holders."""

    __tablename__ = "entitlement"
    __table_args__ = (UniqueConstraint("user_id", "post_id", name="uq_entitlement_user_post"),)

    id: Mapped[id_pk]
    user_id: Mapped[int] = mapped_column(ForeignKey("app_user.id"))
    post_id: Mapped[int] = mapped_column(ForeignKey("resource_post.id"), index=True)
    source: Mapped[str32] = mapped_column(default="ADMIN")
    granted_at: Mapped[utc_time] = mapped_column(default=utcnow)


class Feedback(Base):
    """One consumer report of an application about a resource. Download failures are merged by
    (application, resource, fingerprint) and their counts summed; usefulness snapshots are kept
    one per report. ACTIVE until an operator resolves it (resolvedAt, resolution)."""

    __tablename__ = "delivery_feedback"
    __table_args__ = (
        UniqueConstraint("app_id", "post_id", "kind", "fingerprint", name="uq_delivery_feedback_fp"),
        Index("ix_delivery_feedback_resolved", "app_id", "resolved_at"),
    )

    id: Mapped[id_pk]
    app_id: Mapped[int] = mapped_column(ForeignKey("application.id"))
    post_id: Mapped[int] = mapped_column(ForeignKey("resource_post.id"), index=True)
    kind: Mapped[str32]
    fingerprint: Mapped[str] = mapped_column(String(128))
    file_id: Mapped[int | None] = mapped_column(BigId)
    error_type: Mapped[str | None] = mapped_column(String(32))
    http_status: Mapped[int | None]
    download_url: Mapped[str | None] = mapped_column(String(2048))
    message: Mapped[str | None] = mapped_column(Text)
    count: Mapped[int] = mapped_column(default=1)
    useful_count: Mapped[int | None]
    not_useful_count: Mapped[int | None]
    threshold: Mapped[int | None]
    client_version: Mapped[str | None] = mapped_column(String(64))
    status: Mapped[str32] = mapped_column(default="ACTIVE")
    resolved_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime())
    resolution: Mapped[str | None] = mapped_column(String(1000))
    create_time: Mapped[utc_time] = mapped_column(default=utcnow)
    update_time: Mapped[utc_time] = mapped_column(default=utcnow)


class FailureReporter(Base):
    """A distinct vote on unresolved download failures of a resource: `u<user id>` (a user with its
    own proxy token) or `a<application id>`; their number is compared with the hiding threshold."""

    __tablename__ = "delivery_failure_reporter"
    __table_args__ = (UniqueConstraint("post_id", "reporter", name="uq_delivery_failure_reporter"),)

    id: Mapped[id_pk]
    post_id: Mapped[int] = mapped_column(ForeignKey("resource_post.id"))
    reporter: Mapped[str] = mapped_column(String(128))
    create_time: Mapped[utc_time] = mapped_column(default=utcnow)


class InstallSigningKey(Base):
    """An install-script signing key made by `modhub keys rotate-install-key`: CURRENT signs,
    PREVIOUS keys stay published until retired (RETIRED). The private key is sealed with the
    encryption key; the key that signed before the first rotation (setting or data folder) is
    kept here as PREVIOUS with its public half only."""

    __tablename__ = "install_signing_key"

    id: Mapped[id_pk]
    kid: Mapped[str] = mapped_column(String(32), unique=True)
    status: Mapped[str32]
    public_pem: Mapped[str] = mapped_column(Text)
    private_sealed: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[utc_time] = mapped_column(default=utcnow)
    retired_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime())


class StartupCommandReport(Base):
    """A startup command a consumer finally used (POST game-startup-command)."""

    __tablename__ = "startup_command_report"

    id: Mapped[id_pk]
    app_id: Mapped[int] = mapped_column(ForeignKey("application.id"))
    post_id: Mapped[int] = mapped_column(ForeignKey("resource_post.id"), index=True)
    user_id: Mapped[int | None] = mapped_column(BigId)
    command: Mapped[str] = mapped_column(Text)
    origin: Mapped[str32]
    memory_mb: Mapped[int | None]
    java_version: Mapped[str | None] = mapped_column(String(32))
    game_version: Mapped[str | None] = mapped_column(String(64))
    success: Mapped[bool | None]
    client_version: Mapped[str | None] = mapped_column(String(64))
    create_time: Mapped[utc_time] = mapped_column(default=utcnow)


__all__ = ["Entitlement", "Feedback", "FailureReporter", "StartupCommandReport"]
