"""Admin changes of applications; each one writes a row of the audit table."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from models.console.tables import AdminAudit, ConsoleApp
from models.identity import applications
from models.identity.tables import PROXY_PERMISSION, Application, AppStatus
from modhub.core.errors import ApiError

MAX_QUOTA = 10_000_000


def _audit(session: Session, actor: int, action: str, app_id: int | None, detail: str) -> None:
    session.add(AdminAudit(actor_user_id=actor, action=action, app_id=app_id, detail=detail[:500]))


def record_command(session: Session, *, actor: str, action: str, detail: str) -> None:
    """Audit an administrative command run outside the admin pages (actor: who ran it)."""
    session.add(AdminAudit(actor_user_id=None, actor=actor[:64], action=action[:64], detail=detail[:500]))


def _quota(value: int | None, name: str) -> int | None:
    if value is not None and not 1 <= value <= MAX_QUOTA:
        raise ApiError("PARAMETER_INVALID", f"{name} must be between 1 and {MAX_QUOTA}")
    return value


def pending(session: Session) -> list[tuple[Application, ConsoleApp | None]]:
    """Applications waiting for review, oldest first."""
    rows = session.execute(
        select(Application, ConsoleApp)
        .outerjoin(ConsoleApp, ConsoleApp.app_id == Application.id)
        .where(Application.status == AppStatus.PENDING)
        .order_by(Application.id)
    )
    return [(a, c) for a, c in rows]


def every_app(session: Session) -> list[tuple[Application, ConsoleApp | None]]:
    """Every application with its console facts, oldest first."""
    rows = session.execute(
        select(Application, ConsoleApp)
        .outerjoin(ConsoleApp, ConsoleApp.app_id == Application.id)
        .order_by(Application.id)
    )
    return [(a, c) for a, c in rows]


def approve(
    session: Session, *, actor: int, app_id: int, proxy: bool, per_minute: int | None, per_day: int | None
) -> Application:
    """Approve a pending application, choosing user:proxy and its quotas."""
    app = applications.get_or_raise(session, app_id=app_id)
    if app.status != AppStatus.PENDING:
        raise ApiError("CONFLICT", f"application {app_id} is {app.status.value}, not PENDING")
    app.permissions = [PROXY_PERMISSION] if proxy else []
    app.per_minute, app.per_day = _quota(per_minute, "per minute"), _quota(per_day, "per day")
    app.status = AppStatus.APPROVED
    _audit(
        session,
        actor,
        "approve",
        app_id,
        f"user:proxy={'yes' if proxy else 'no'} per_minute={per_minute or 'default'} "
        f"per_day={per_day or 'default'}",
    )
    session.flush()
    return app


def refuse(session: Session, *, actor: int, app_id: int, reason: str) -> Application:
    """Refuse a pending application with a reason the owner reads (it ends DISABLED)."""
    reason = reason.strip()
    if not reason:
        raise ApiError("PARAMETER_INVALID", "a refusal needs a reason")
    app = applications.get_or_raise(session, app_id=app_id)
    if app.status != AppStatus.PENDING:
        raise ApiError("CONFLICT", f"application {app_id} is {app.status.value}, not PENDING")
    app.status = AppStatus.DISABLED
    console = session.get(ConsoleApp, app_id)
    if console is not None:
        console.refusal_reason = reason[:2000]
    _audit(session, actor, "refuse", app_id, reason)
    session.flush()
    return app


def set_enabled(session: Session, *, actor: int, app_id: int, enabled: bool) -> Application:
    """Disable an approved application, or enable a disabled one again."""
    app = applications.get_or_raise(session, app_id=app_id)
    want, was = (AppStatus.APPROVED, AppStatus.DISABLED)
    if not enabled:
        want, was = was, want
    if app.status != was:
        raise ApiError("CONFLICT", f"application {app_id} is {app.status.value}, not {was.value}")
    app.status = want
    _audit(session, actor, "enable" if enabled else "disable", app_id, "")
    session.flush()
    return app


def set_quotas(
    session: Session, *, actor: int, app_id: int, per_minute: int | None, per_day: int | None
) -> Application:
    """Change an application's quotas (None: the platform default)."""
    app = applications.get_or_raise(session, app_id=app_id)
    app.per_minute, app.per_day = _quota(per_minute, "per minute"), _quota(per_day, "per day")
    _audit(
        session,
        actor,
        "quotas",
        app_id,
        f"per_minute={per_minute or 'default'} per_day={per_day or 'default'}",
    )
    session.flush()
    return app


def audit_log(session: Session, *, limit: int = 100) -> list[AdminAudit]:
    """The newest audit rows first."""
    return list(session.scalars(select(AdminAudit).order_by(AdminAudit.id.desc()).limit(limit)))
