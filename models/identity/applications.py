"""Domain functions for third-party applications: register, approve, disable, rotate secrets."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from models.identity.tables import Application, AppStatus
from modhub.core.crypto import SecretBox, new_api_key, new_secret_key
from modhub.core.errors import ApiError


@dataclass(frozen=True)
class Credentials:
    """What an application is told once: its id, API key and secret key."""

    app_id: int
    api_key: str
    secret_key: str

    def as_json(self) -> dict[str, Any]:
        """The shape the CLI prints."""
        return {"appId": self.app_id, "apiKey": self.api_key, "secretKey": self.secret_key}


def create(
    session: Session,
    box: SecretBox,
    *,
    name: str,
    permissions: Iterable[str] = (),
    ip_allow: Iterable[str] = (),
    redirect_uris: Iterable[str] = (),
    scopes: Iterable[str] = (),
    per_minute: int | None = None,
    per_day: int | None = None,
    approve: bool = False,
) -> Credentials:
    """Register an application; the secret is returned once and stored encrypted."""
    secret = new_secret_key()
    app = Application(
        name=name,
        api_key=new_api_key(),
        secret_encrypted=box.seal(secret),
        status=AppStatus.APPROVED if approve else AppStatus.PENDING,
        permissions=sorted(set(permissions)),
        ip_allow=list(ip_allow),
        redirect_uris=list(redirect_uris),
        scopes=sorted(set(scopes)),
        per_minute=per_minute,
        per_day=per_day,
    )
    session.add(app)
    session.flush()
    return Credentials(app.id, app.api_key, secret)


def get_or_raise(session: Session, *, app_id: int) -> Application:
    """The application with this id, or RECORD_NOT_FOUND."""
    app = session.get(Application, app_id)
    if app is None:
        raise ApiError("RECORD_NOT_FOUND", f"application {app_id} does not exist")
    return app


def set_status(session: Session, *, app_id: int, status: AppStatus) -> Application:
    """Approve or disable an application."""
    app = get_or_raise(session, app_id=app_id)
    app.status = status
    session.flush()
    return app


def rotate_secret(session: Session, box: SecretBox, *, app_id: int) -> Credentials:
    """Replace an application's secret key; the old one stops working at once."""
    app = get_or_raise(session, app_id=app_id)
    secret = new_secret_key()
    app.secret_encrypted = box.seal(secret)
    session.flush()
    return Credentials(app.id, app.api_key, secret)


def list_(session: Session) -> list[Application]:
    """Every application, oldest first."""
    return list(session.scalars(select(Application).order_by(Application.id)))
