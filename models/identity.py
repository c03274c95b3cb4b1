"""Applications, platform users and proxy access tokens, with the lookups the gateway needs."""

from __future__ import annotations

import datetime as dt
import enum
import hashlib

from sqlalchemy import JSON, Enum, ForeignKey, String, Text, select
from sqlalchemy.orm import Mapped, Session, mapped_column

from models.base import Base
from models.types import UTCDateTime, big_id, id_pk, str64, str128, utc_time, utcnow
from modhub.display import display_url, format_time
from modhub.errors import ApiError

PROXY_PERMISSION = "user:proxy"


class AppStatus(enum.StrEnum):
    """Life cycle of an application: registered, approved by an administrator, or disabled."""

    PENDING = "PENDING"
    APPROVED = "APPROVED"
    DISABLED = "DISABLED"


class Application(Base):
    """A third-party application: API key, encrypted secret, permissions, allow-list, quotas."""

    __tablename__ = "application"

    id: Mapped[id_pk]
    name: Mapped[str128]
    api_key: Mapped[str] = mapped_column(String(32), unique=True)
    secret_encrypted: Mapped[str] = mapped_column(Text)
    status: Mapped[AppStatus] = mapped_column(
        Enum(AppStatus, name="app_status", native_enum=False, length=16), default=AppStatus.PENDING)
    permissions: Mapped[list] = mapped_column(JSON, default=list)
    scopes: Mapped[list] = mapped_column(JSON, default=list)
    ip_allow: Mapped[list] = mapped_column(JSON, default=list)
    redirect_uris: Mapped[list] = mapped_column(JSON, default=list)
    per_minute: Mapped[int | None]
    per_day: Mapped[int | None]
    created_at: Mapped[utc_time] = mapped_column(default=utcnow)
    updated_at: Mapped[utc_time] = mapped_column(default=utcnow, onupdate=utcnow)

    @property
    def has_proxy_permission(self) -> bool:
        """True when the application was approved with the user:proxy permission."""
        return PROXY_PERMISSION in (self.permissions or [])


class User(Base):
    """A platform user (the person a proxy token acts for)."""

    __tablename__ = "app_user"

    id: Mapped[id_pk]
    username: Mapped[str64] = mapped_column(unique=True)
    login_name: Mapped[str | None] = mapped_column(String(64), unique=True)
    email: Mapped[str | None] = mapped_column(String(255), unique=True)
    phone: Mapped[str | None] = mapped_column(String(32), unique=True)
    password_hash: Mapped[str | None] = mapped_column(Text)
    avatar: Mapped[str | None] = mapped_column(String(512))
    gender: Mapped[str | None] = mapped_column(String(16))
    bio: Mapped[str | None] = mapped_column(Text)
    location: Mapped[str | None] = mapped_column(String(128))
    status: Mapped[str] = mapped_column(String(16), default="NORMAL")
    is_delete: Mapped[bool] = mapped_column(default=False)
    created_at: Mapped[utc_time] = mapped_column(default=utcnow)


class ProxyToken(Base):
    """A proxy access token, stored only as the SHA-256 of the token text."""

    __tablename__ = "proxy_token"

    id: Mapped[id_pk]
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    app_id: Mapped[big_id] = mapped_column(ForeignKey("application.id"), index=True)
    user_id: Mapped[big_id] = mapped_column(ForeignKey("app_user.id"), index=True)
    scopes: Mapped[list] = mapped_column(JSON, default=list)
    source: Mapped[str] = mapped_column(String(16), default="OAUTH")
    issued_at: Mapped[utc_time] = mapped_column(default=utcnow)
    expires_at: Mapped[utc_time]
    revoked_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime())


def token_hash(token: str) -> str:
    """The stored form of a token: hex SHA-256 (tokens are high-entropy, so no salt is needed)."""
    return hashlib.sha256(token.encode()).hexdigest()


def get_app_by_key(session: Session, *, api_key: str) -> Application | None:
    """The application holding this API key, or None."""
    return session.scalar(select(Application).where(Application.api_key == api_key))


def get_token(session: Session, *, token: str) -> ProxyToken | None:
    """The proxy token row for a presented token text, or None."""
    return session.scalar(select(ProxyToken).where(ProxyToken.token_hash == token_hash(token)))


def get_user(session: Session, *, user_id: int) -> User | None:
    """A live (not deleted) user by id, or None."""
    user = session.get(User, user_id)
    return None if user is None or user.is_delete else user



def get_user_or_raise(session: Session, *, user_id: int) -> User:
    """A live user by id, or RECORD_NOT_FOUND."""
    user = get_user(session, user_id=user_id)
    if user is None:
        raise ApiError("RECORD_NOT_FOUND", f"user {user_id} does not exist")
    return user


def user_profile(user: User, *, zone: str, cdn_base: str = "") -> dict:
    """OpenApiUserProfileVo of a user."""
    return {"userId": user.id, "loginName": user.login_name or user.username,
            "avatar": display_url(user.avatar, cdn_base), "gender": user.gender, "bio": user.bio,
            "location": user.location, "status": user.status,
            "registerTime": format_time(user.created_at, zone)}
