"""Identity lookups the gateway needs: applications by API key, proxy tokens, users."""

from __future__ import annotations

import hashlib

from sqlalchemy import select
from sqlalchemy.orm import Session

from models.identity.tables import Application, ProxyToken, User
from modhub.core.errors import ApiError


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
