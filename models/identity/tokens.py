"""Issuing and revoking proxy access tokens, and the application checks every token source shares."""

from __future__ import annotations

import datetime as dt
import secrets
import string

from sqlalchemy import update
from sqlalchemy.orm import Session

from models.identity.service import get_token, token_hash
from models.identity.tables import Application, AppStatus, ProxyToken
from modhub.core.errors import ApiError

TOKEN_TTL = dt.timedelta(hours=24)
CODE_ALPHABET = string.ascii_uppercase + string.digits


def random_code(length: int) -> str:
    """A code of upper-case letters and digits drawn from the CSPRNG."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(length))


def proxy_app_or_raise(session: Session, *, app_id: int) -> Application:
    """The calling application, which must hold user:proxy (K operations check it here)."""
    app = session.get(Application, app_id)
    if app is None or app.status is not AppStatus.APPROVED:
        raise ApiError("APP_NOT_APPROVED")
    if not app.has_proxy_permission:
        raise ApiError("PROXY_PERMISSION_REQUIRED")
    return app


def live_token_or_raise(session: Session, *, token: str, app_id: int, now: dt.datetime) -> ProxyToken:
    """The stored token of this application, neither revoked nor expired, else 200211 / 200213 /
    200212 (the gateway's T and P checks and the optional proxy user of a K operation)."""
    row = get_token(session, token=token)
    if row is None or row.app_id != app_id:
        raise ApiError("PROXY_TOKEN_INVALID")
    if row.revoked_at is not None:
        raise ApiError("PROXY_TOKEN_REVOKED")
    if row.expires_at <= now:
        raise ApiError("PROXY_TOKEN_EXPIRED")
    return row


def granted_scopes(
    app: Application, requested: list[str] | None, consented: list[str] | None = None
) -> list[str]:
    """The scopes of a new token: the requested subset, or every scope approved for the app.

    With `consented` (the scopes the user saw on the consent page), scopes the application gained
    after the consent are left out.
    """
    approved = set(app.scopes or [])
    if consented is not None:
        approved &= set(consented)
    if not requested:
        return sorted(approved)
    extra = sorted(set(requested) - approved)
    if extra:
        raise ApiError("SCOPE_DENIED", f"scopes not approved for this application: {', '.join(extra)}")
    return sorted(set(requested))


def issue_token(
    session: Session, *, app_id: int, user_id: int, scopes: list[str], source: str, now: dt.datetime
) -> tuple[str, ProxyToken]:
    """A new 24-hour proxy token; only its hash is stored, the text is returned once."""
    text = secrets.token_urlsafe(32)
    row = ProxyToken(
        token_hash=token_hash(text),
        app_id=app_id,
        user_id=user_id,
        scopes=scopes,
        source=source,
        issued_at=now,
        expires_at=now + TOKEN_TTL,
    )
    session.add(row)
    session.flush()
    return text, row


def revoke(session: Session, *, app_id: int, token: str, now: dt.datetime) -> bool:
    """Revoke the presented token of this application; True when it was active."""
    result = session.execute(
        update(ProxyToken)
        .where(
            ProxyToken.token_hash == token_hash(token),
            ProxyToken.app_id == app_id,
            ProxyToken.revoked_at.is_(None),
        )
        .values(revoked_at=now)
    )
    return result.rowcount == 1
