"""Platform accounts: passwords (argon2), site log-in, and proxy-user registration by an application."""

from __future__ import annotations

import datetime as dt
import secrets
import string
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import or_, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from models.identity import bindings
from models.identity.tables import User
from models.identity.tokens import TOKEN_TTL, granted_scopes, issue_token, proxy_app_or_raise
from modhub.core.errors import ApiError

_HASHER = PasswordHasher()
# What an unknown login is verified against, so both failures cost the same time: the hash of a
# random password nobody kept, made with PasswordHasher()'s parameters (a unit test checks that they
# still match). A literal, not hashed at import: that cost every process 0.12 s of CPU at start.
_DUMMY_HASH = (
    "$argon2id$v=19$m=65536,t=3,p=4$cbJKYogfh7JRU6BT1kUgVQ$O+CiJPri5HUHYgxhm/+KRS/+rVSq3U/udqB6MxAAZDg"
)
_LOGIN_ALPHABET = string.ascii_lowercase + string.digits


def hash_password(plain: str) -> str:
    """The argon2id hash stored for a password."""
    return _HASHER.hash(plain)


def authenticate(session: Session, *, login: str, password: str) -> User | None:
    """The live user whose username or login name is `login` and whose password matches, else None."""
    if "\x00" in login:
        return None  # no account can have it (and PostgreSQL cannot even compare it)
    # One user's username may be another's login name: try each candidate (at most two).
    candidates = [
        u
        for u in session.scalars(
            select(User)
            .where(or_(User.username == login, User.login_name == login), User.is_delete.is_(False))
            .limit(2)
        )
        if u.password_hash
    ]
    tries: list[User | None] = list(candidates) or [None]
    for user in tries:
        # candidates all have a hash: the dummy is verified only when nobody matched
        stored = user.password_hash if user is not None and user.password_hash else _DUMMY_HASH
        try:
            _HASHER.verify(stored, password)
        except (VerificationError, InvalidHashError):
            continue
        if user is not None:
            return user
    return None


def _taken(session: Session, **fields: str | None) -> list[str]:
    """The names of the unique account fields whose value another account already uses."""
    column = {
        "username": User.username,
        "loginName": User.login_name,
        "email": User.email,
        "phone": User.phone,
    }
    return [
        name
        for name, value in fields.items()
        if value is not None and session.scalar(select(User.id).where(column[name] == value))
    ]


def _new_login_name(session: Session) -> str:
    while True:
        name = "u" + "".join(secrets.choice(_LOGIN_ALPHABET) for _ in range(11))
        if not _taken(session, loginName=name):
            return name


def _blank_to_none(value: str | None) -> str | None:
    return value.strip() or None if value is not None else None


def register(
    session: Session,
    *,
    app_id: int,
    username: str,
    phone: str | None = None,
    email: str | None = None,
    login_name: str | None = None,
    password: str | None = None,
    external_user_id: str | None = None,
    external_username: str | None = None,
    external_display_name: str | None = None,
    now: dt.datetime,
) -> dict[str, Any]:
    """Create an account for an application, bind it, and issue its first token.

    Returns OpenApiProxyUserRegisterVO; a generated password appears only in this return value.
    """
    app = proxy_app_or_raise(session, app_id=app_id)
    phone, email, login_name = _blank_to_none(phone), _blank_to_none(email), _blank_to_none(login_name)
    taken = _taken(session, username=username, loginName=login_name, email=email, phone=phone)
    if taken:
        raise ApiError("CONFLICT", f"already taken: {', '.join(taken)}")
    generated = password is None
    plain = secrets.token_urlsafe(12) if password is None else password
    user = User(
        username=username,
        login_name=login_name or _new_login_name(session),
        email=email,
        phone=phone,
        password_hash=hash_password(plain),
        created_at=now,
    )
    try:
        with session.begin_nested():
            session.add(user)
    except IntegrityError as exc:
        raise ApiError("CONFLICT", "username, login name, e-mail or phone was taken concurrently") from exc
    if external_user_id:
        bindings.link(
            session,
            app_id=app_id,
            user_id=user.id,
            external_user_id=external_user_id,
            external_username=external_username,
            external_display_name=external_display_name,
            source="REGISTER",
            now=now,
        )
    text, _ = issue_token(
        session, app_id=app_id, user_id=user.id, scopes=granted_scopes(app, None), source="REGISTER", now=now
    )
    return {
        "userId": str(user.id),
        "accessToken": text,
        "expiresInSeconds": int(TOKEN_TTL.total_seconds()),
        "loginName": user.login_name,
        "passwordAutoGenerated": 1 if generated else 0,
        "plainPassword": plain if generated else None,
    }
