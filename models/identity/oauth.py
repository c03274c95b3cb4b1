"""Authorization codes, pairing codes and SSO tickets: one-time secrets stored only as hashes.

Each is consumed by a conditional UPDATE (`used_at IS NULL AND expires_at > now`), so two
concurrent redemptions of one code cannot both succeed.
"""

from __future__ import annotations

import datetime as dt
import secrets

from sqlalchemy import delete, select, update
from sqlalchemy.orm import Session

from models.identity.service import get_user, token_hash
from models.identity.tables import Application, AuthCode, IdempotencyKey, PairingCode, SsoTicket, User
from models.identity.tokens import granted_scopes, issue_token, proxy_app_or_raise, random_code
from modhub.core.errors import ApiError

AUTH_CODE_TTL = dt.timedelta(minutes=5)
PAIRING_CODE_TTL = dt.timedelta(days=1)
SSO_TICKET_TTL = dt.timedelta(seconds=300)


def _consume(session: Session, model, row_id: int, now: dt.datetime) -> bool:
    """Mark one code used if it still is unused and unexpired; False when someone was faster."""
    result = session.execute(
        update(model)
        .where(model.id == row_id, model.used_at.is_(None), model.expires_at > now)
        .values(used_at=now)
    )
    return result.rowcount == 1


def consent_app(session: Session, *, app_id: int, redirect_uri: str) -> Application:
    """The application asking for consent; its redirect_uri must be registered exactly."""
    app = session.get(Application, app_id)
    if app is None:
        raise ApiError("RECORD_NOT_FOUND", "unknown application")
    app = proxy_app_or_raise(session, app_id=app_id)
    if redirect_uri not in (app.redirect_uris or []):
        raise ApiError("PARAMETER_INVALID", "redirect_uri is not registered for this application")
    return app


def create_auth_code(
    session: Session, *, app_id: int, user_id: int, redirect_uri: str, now: dt.datetime
) -> str:
    """A 6-character code for the consent just given; the caller redirects with it."""
    app = consent_app(session, app_id=app_id, redirect_uri=redirect_uri)
    code = random_code(6)
    session.add(
        AuthCode(
            code_hash=token_hash(code),
            app_id=app_id,
            user_id=user_id,
            redirect_uri=redirect_uri,
            scopes=list(app.scopes or []),
            created_at=now,
            expires_at=now + AUTH_CODE_TTL,
        )
    )
    session.flush()
    return code


def exchange_auth_code(
    session: Session,
    *,
    app_id: int,
    user_id: int | None,
    auth_code: str,
    requested_scopes: list[str] | None,
    now: dt.datetime,
):
    """Trade an auth code for a proxy token of its user: (token text, token row).

    The code names its user; a user_id that is given must be that user (AUTH_CODE_USER_MISMATCH).
    """
    app = proxy_app_or_raise(session, app_id=app_id)
    row = session.scalar(select(AuthCode).where(AuthCode.code_hash == token_hash(auth_code)))
    if row is None or row.app_id != app_id or row.used_at is not None or row.expires_at <= now:
        raise ApiError("AUTH_CODE_INVALID")
    if user_id is not None and row.user_id != user_id:
        raise ApiError("AUTH_CODE_USER_MISMATCH")
    user_id = row.user_id
    scopes = granted_scopes(app, requested_scopes, consented=row.scopes)
    if get_user(session, user_id=user_id) is None or not _consume(session, AuthCode, row.id, now):
        raise ApiError("AUTH_CODE_INVALID")
    return issue_token(session, app_id=app_id, user_id=user_id, scopes=scopes, source="OAUTH", now=now)


def create_pairing_code(session: Session, *, user_id: int, now: dt.datetime) -> tuple[str, dt.datetime]:
    """An 8-character pairing code for a logged-in user: (code, expiry)."""
    code = random_code(8)
    expires = now + PAIRING_CODE_TTL
    session.add(PairingCode(code_hash=token_hash(code), user_id=user_id, created_at=now, expires_at=expires))
    session.flush()
    return code, expires


def redeem_pairing_code(session: Session, *, app_id: int, pairing_code: str, now: dt.datetime):
    """Trade a pairing code for a proxy token of its user: (token text, token row)."""
    app = proxy_app_or_raise(session, app_id=app_id)
    row = session.scalar(select(PairingCode).where(PairingCode.code_hash == token_hash(pairing_code)))
    if (
        row is None
        or get_user(session, user_id=row.user_id) is None
        or not _consume(session, PairingCode, row.id, now)
    ):
        raise ApiError("PAIRING_CODE_INVALID")
    row.redeemed_by_app_id = app_id
    return issue_token(
        session,
        app_id=app_id,
        user_id=row.user_id,
        scopes=granted_scopes(app, None),
        source="PAIRING",
        now=now,
    )


def create_sso_ticket(session: Session, *, app_id: int, user_id: int, now: dt.datetime) -> dict:
    """OpenApiSsoTicketVO: a one-time ticket for the token's user, valid 300 seconds."""
    ticket = secrets.token_urlsafe(32)
    session.add(
        SsoTicket(
            ticket_hash=token_hash(ticket),
            app_id=app_id,
            user_id=user_id,
            created_at=now,
            expires_at=now + SSO_TICKET_TTL,
        )
    )
    session.flush()
    return {"ticket": ticket, "expiresInSeconds": int(SSO_TICKET_TTL.total_seconds())}


def consume_sso_ticket(session: Session, *, ticket: str, now: dt.datetime) -> User:
    """The user a ticket logs in; the ticket is spent. SSO_TICKET_INVALID otherwise."""
    row = session.scalar(select(SsoTicket).where(SsoTicket.ticket_hash == token_hash(ticket)))
    if row is None or not _consume(session, SsoTicket, row.id, now):
        raise ApiError("SSO_TICKET_INVALID")
    user = get_user(session, user_id=row.user_id)
    if user is None:
        raise ApiError("SSO_TICKET_INVALID")
    return user


def purge_expired(session: Session, *, now: dt.datetime, grace: dt.timedelta = dt.timedelta(days=1)) -> dict:
    """Delete codes, tickets and wallet idempotency keys expired for longer than `grace`; counts."""
    removed = {}
    for model in (AuthCode, PairingCode, SsoTicket, IdempotencyKey):
        result = session.execute(delete(model).where(model.expires_at < now - grace))
        removed[model.__tablename__] = result.rowcount
    return removed
