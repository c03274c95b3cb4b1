"""Mapped classes of identity: applications, platform users, proxy tokens, user bindings, one-time
codes (auth codes, pairing codes, SSO tickets), provider accounts and collects, carousel
placements, wallets, the wallet ledger and idempotency keys.
"""

from __future__ import annotations

import datetime as dt
import enum
from decimal import Decimal

from sqlalchemy import (
    JSON,
    CheckConstraint,
    Enum,
    ForeignKey,
    Numeric,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column

from models.base import Base
from models.types import BigId, UTCDateTime, big_id, id_pk, money, str64, str128, utc_time, utcnow

ZERO = Decimal("0")
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
        Enum(AppStatus, name="app_status", native_enum=False, length=16), default=AppStatus.PENDING
    )
    permissions: Mapped[list[str]] = mapped_column(JSON, default=list)
    scopes: Mapped[list[str]] = mapped_column(JSON, default=list)
    ip_allow: Mapped[list[str]] = mapped_column(JSON, default=list)
    redirect_uris: Mapped[list[str]] = mapped_column(JSON, default=list)
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
    scopes: Mapped[list[str]] = mapped_column(JSON, default=list)
    source: Mapped[str] = mapped_column(String(16), default="OAUTH")
    issued_at: Mapped[utc_time] = mapped_column(default=utcnow)
    expires_at: Mapped[utc_time]
    revoked_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime())


ACTIVE, UNBOUND = "ACTIVE", "UNBOUND"


class UserBinding(Base):
    """One application user (externalUserId) bound to one platform user."""

    __tablename__ = "user_binding"
    __table_args__ = (UniqueConstraint("app_id", "external_user_id", name="uq_user_binding_app_external"),)

    id: Mapped[id_pk]
    app_id: Mapped[big_id] = mapped_column(ForeignKey("application.id"))
    user_id: Mapped[big_id] = mapped_column(ForeignKey("app_user.id"), index=True)
    external_user_id: Mapped[str] = mapped_column(String(128))
    external_username: Mapped[str | None] = mapped_column(String(128))
    external_display_name: Mapped[str | None] = mapped_column(String(128))
    bind_source: Mapped[str] = mapped_column(String(16))
    status: Mapped[str] = mapped_column(String(16), default=ACTIVE)
    bind_time: Mapped[utc_time] = mapped_column(default=utcnow)
    unbound_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime())


class AuthCode(Base):
    """An authorization code issued on the consent page, for one app, user and redirect URI."""

    __tablename__ = "oauth_auth_code"

    id: Mapped[id_pk]
    code_hash: Mapped[str] = mapped_column(String(64), unique=True)
    app_id: Mapped[big_id] = mapped_column(ForeignKey("application.id"), index=True)
    user_id: Mapped[big_id] = mapped_column(ForeignKey("app_user.id"), index=True)
    redirect_uri: Mapped[str] = mapped_column(String(2048))
    scopes: Mapped[list[str]] = mapped_column(JSON, default=list)
    created_at: Mapped[utc_time] = mapped_column(default=utcnow)
    expires_at: Mapped[utc_time]
    used_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime())


class PairingCode(Base):
    """A pairing code a user generated in the community, redeemable once by any proxy app."""

    __tablename__ = "pairing_code"

    id: Mapped[id_pk]
    code_hash: Mapped[str] = mapped_column(String(64), unique=True)
    user_id: Mapped[big_id] = mapped_column(ForeignKey("app_user.id"), index=True)
    created_at: Mapped[utc_time] = mapped_column(default=utcnow)
    expires_at: Mapped[utc_time]
    used_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime())
    redeemed_by_app_id: Mapped[int | None] = mapped_column(ForeignKey("application.id"))


class SsoTicket(Base):
    """A one-time single sign-on ticket that logs its user in on the site."""

    __tablename__ = "sso_ticket"

    id: Mapped[id_pk]
    ticket_hash: Mapped[str] = mapped_column(String(64), unique=True)
    app_id: Mapped[big_id] = mapped_column(ForeignKey("application.id"), index=True)
    user_id: Mapped[big_id] = mapped_column(ForeignKey("app_user.id"), index=True)
    created_at: Mapped[utc_time] = mapped_column(default=utcnow)
    expires_at: Mapped[utc_time]
    used_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime())


class ProviderAccount(Base):
    """A provider application's activity points account in one currency."""

    __tablename__ = "provider_account"
    __table_args__ = (UniqueConstraint("app_id", "currency", name="uq_provider_account_app_currency"),)

    id: Mapped[id_pk]
    app_id: Mapped[big_id] = mapped_column(ForeignKey("application.id"))
    currency: Mapped[str] = mapped_column(String(16))
    balance: Mapped[money] = mapped_column(default=ZERO)
    updated_at: Mapped[utc_time] = mapped_column(default=utcnow)


class ProviderCollect(Base):
    """One collection: the provider-side ledger row and the idempotency record of its requestId."""

    __tablename__ = "provider_collect"
    __table_args__ = (UniqueConstraint("app_id", "request_id", name="uq_provider_collect_app_request"),)

    id: Mapped[id_pk]
    app_id: Mapped[big_id] = mapped_column(ForeignKey("application.id"))
    request_id: Mapped[str] = mapped_column(String(64))
    account_id: Mapped[big_id] = mapped_column(ForeignKey("provider_account.id"), index=True)
    user_id: Mapped[big_id] = mapped_column(ForeignKey("app_user.id"), index=True)
    activity_code: Mapped[str] = mapped_column(String(64))
    currency: Mapped[str] = mapped_column(String(16))
    amount: Mapped[Decimal] = mapped_column(Numeric(20, 4))
    reason: Mapped[str | None] = mapped_column(String(200))
    user_ledger_id: Mapped[big_id] = mapped_column(ForeignKey("wallet_ledger.id"))
    user_balance_after: Mapped[money]
    provider_balance_after: Mapped[money]
    created_at: Mapped[utc_time] = mapped_column(default=utcnow)


class CarouselPlacement(Base):
    """A self-service carousel slide of a provider (no review), shown between two times."""

    __tablename__ = "carousel_placement"

    id: Mapped[id_pk]
    app_id: Mapped[big_id] = mapped_column(ForeignKey("application.id"), index=True)
    user_id: Mapped[big_id] = mapped_column(ForeignKey("app_user.id"))
    image_url: Mapped[str] = mapped_column(String(2048))
    target_url: Mapped[str] = mapped_column(String(2048))
    title: Mapped[str] = mapped_column(String(60))
    description: Mapped[str | None] = mapped_column(String(200))
    server_post_id: Mapped[int | None] = mapped_column(BigId)
    start_time: Mapped[utc_time]
    end_time: Mapped[utc_time]
    created_at: Mapped[utc_time] = mapped_column(default=utcnow)


class Wallet(Base):
    """One user's balance in one currency; frozen is the part set aside and not spendable."""

    __tablename__ = "wallet"
    __table_args__ = (
        UniqueConstraint("user_id", "currency", name="uq_wallet_user_currency"),
        CheckConstraint("balance >= 0", name="balance_not_negative"),
        CheckConstraint("frozen >= 0 AND frozen <= balance", name="frozen_within_balance"),
    )

    id: Mapped[id_pk]
    user_id: Mapped[big_id] = mapped_column(ForeignKey("app_user.id"))
    currency: Mapped[str] = mapped_column(String(16))
    balance: Mapped[money] = mapped_column(default=ZERO)
    frozen: Mapped[money] = mapped_column(default=ZERO)
    updated_at: Mapped[utc_time] = mapped_column(default=utcnow)


class WalletLedger(Base):
    """One balance change: signed amount, balance after it, why, and which application made it."""

    __tablename__ = "wallet_ledger"

    id: Mapped[id_pk]
    wallet_id: Mapped[big_id] = mapped_column(ForeignKey("wallet.id"), index=True)
    user_id: Mapped[big_id]
    currency: Mapped[str] = mapped_column(String(16))
    amount: Mapped[Decimal] = mapped_column(Numeric(20, 4))
    balance_after: Mapped[money]
    reason: Mapped[str] = mapped_column(String(200))
    app_id: Mapped[int | None] = mapped_column(ForeignKey("application.id"))
    created_at: Mapped[utc_time] = mapped_column(default=utcnow)


class IdempotencyKey(Base):
    """A claimed key: who used it, a fingerprint of the request, and the answer it got."""

    __tablename__ = "idempotency_key"
    __table_args__ = (UniqueConstraint("app_id", "key", name="uq_idempotency_key_app_key"),)

    id: Mapped[id_pk]
    app_id: Mapped[big_id] = mapped_column(ForeignKey("application.id"))
    key: Mapped[str] = mapped_column(String(64))
    fingerprint: Mapped[str] = mapped_column(String(64))
    record_id: Mapped[int | None] = mapped_column(ForeignKey("wallet_ledger.id"))
    new_balance: Mapped[Decimal | None] = mapped_column(Numeric(20, 4))
    currency: Mapped[str] = mapped_column(String(16))
    created_at: Mapped[utc_time]
    expires_at: Mapped[utc_time]
