"""Tables of the console: who owns an application, who is an admin, what admins changed."""

from __future__ import annotations

import datetime as dt

from sqlalchemy import JSON, Boolean, ForeignKey, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from models.base import Base
from models.types import BigId, UTCDateTime, id_pk, str32, str64, utc_time, utcnow


class SiteRole(Base):
    """A site role of a user (today only "admin": may approve and change applications)."""

    __tablename__ = "site_role"

    user_id: Mapped[int] = mapped_column(BigId, ForeignKey("app_user.id"), primary_key=True)
    role: Mapped[str32]
    granted_at: Mapped[utc_time] = mapped_column(default=utcnow)


class ConsoleApp(Base):
    """Console facts of an application registered on the site: owner, description, review."""

    __tablename__ = "console_app"

    app_id: Mapped[int] = mapped_column(BigId, ForeignKey("application.id"), primary_key=True)
    owner_user_id: Mapped[int] = mapped_column(BigId, ForeignKey("app_user.id"), index=True)
    description: Mapped[str] = mapped_column(Text, default="")
    wanted_permissions: Mapped[list[str]] = mapped_column(JSON, default=list)
    refusal_reason: Mapped[str | None] = mapped_column(Text)
    secret_shown: Mapped[bool] = mapped_column(Boolean, default=False)
    old_secret_ended_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime())


class AdminAudit(Base):
    """One change an admin made, on the admin pages (actor_user_id) or with an administrative
    `modhub` command (actor "cli:<os user>@<host>"): who, what, when."""

    __tablename__ = "admin_audit"

    id: Mapped[id_pk]
    actor_user_id: Mapped[int | None] = mapped_column(BigId, ForeignKey("app_user.id"))
    actor: Mapped[str] = mapped_column(String(64), default="", server_default="")
    action: Mapped[str64]
    app_id: Mapped[int | None] = mapped_column(BigId, ForeignKey("application.id"))
    detail: Mapped[str] = mapped_column(String(500), default="")
    created_at: Mapped[utc_time] = mapped_column(default=utcnow, index=True)
