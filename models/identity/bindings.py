"""Bindings between platform users and the users of a third-party application (one to one per app)."""

from __future__ import annotations

import datetime as dt

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from models.identity.tables import ACTIVE, UNBOUND, UserBinding
from modhub.core.errors import ApiError


def _find(session: Session, app_id: int, external_user_id: str) -> UserBinding | None:
    return session.scalar(
        select(UserBinding)
        .where(UserBinding.app_id == app_id, UserBinding.external_user_id == external_user_id)
        .with_for_update()
    )


def _other_active(session: Session, app_id: int, user_id: int, external_user_id: str) -> bool:
    return (
        session.scalar(
            select(UserBinding.id)
            .where(
                UserBinding.app_id == app_id,
                UserBinding.user_id == user_id,
                UserBinding.status == ACTIVE,
                UserBinding.external_user_id != external_user_id,
            )
            .limit(1)
        )
        is not None
    )


def link(
    session: Session,
    *,
    app_id: int,
    user_id: int,
    external_user_id: str,
    external_username: str | None = None,
    external_display_name: str | None = None,
    source: str = "LINK",
    now: dt.datetime,
) -> UserBinding:
    """Idempotent upsert of the binding of external_user_id to user_id (CONFLICT when taken)."""
    row = _find(session, app_id, external_user_id)
    if row is not None and row.status == ACTIVE and row.user_id != user_id:
        raise ApiError("CONFLICT", "externalUserId is bound to another platform user")
    if _other_active(session, app_id, user_id, external_user_id):
        raise ApiError(
            "CONFLICT",
            "the user is already bound to another externalUserId of this application: unlink it first",
        )
    if row is None:
        return _insert(
            session,
            app_id=app_id,
            user_id=user_id,
            external_user_id=external_user_id,
            external_username=external_username,
            external_display_name=external_display_name,
            source=source,
            now=now,
        )
    if row.status != ACTIVE:
        row.user_id, row.status, row.bind_source, row.bind_time = user_id, ACTIVE, source, now
        row.unbound_at = None
    row.external_username, row.external_display_name = external_username, external_display_name
    session.flush()
    return row


def _insert(
    session: Session,
    *,
    app_id: int,
    user_id: int,
    external_user_id: str,
    external_username: str | None,
    external_display_name: str | None,
    source: str,
    now: dt.datetime,
) -> UserBinding:
    row = UserBinding(
        app_id=app_id,
        user_id=user_id,
        external_user_id=external_user_id,
        external_username=external_username,
        external_display_name=external_display_name,
        bind_source=source,
        status=ACTIVE,
        bind_time=now,
    )
    try:
        with session.begin_nested():
            session.add(row)
    except IntegrityError as exc:
        # A concurrent link of the same externalUserId committed first.
        raise ApiError("CONFLICT", "externalUserId was bound concurrently; retry") from exc
    return row


def unlink(session: Session, *, app_id: int, user_id: int, external_user_id: str, now: dt.datetime) -> int:
    """Mark the user's active binding of external_user_id UNBOUND; the number changed (0 or 1)."""
    row = _find(session, app_id, external_user_id)
    if row is None or row.status != ACTIVE or row.user_id != user_id:
        return 0
    row.status, row.unbound_at = UNBOUND, now
    session.flush()
    return 1
