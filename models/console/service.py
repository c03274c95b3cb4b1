"""Reads and changes of the developer console and the admin pages (flush, never commit)."""

from __future__ import annotations

import datetime as dt
import ipaddress
from collections.abc import Iterable
from urllib.parse import urlsplit

from sqlalchemy import select
from sqlalchemy.orm import Session

from models.console.tables import ConsoleApp, SiteRole
from models.identity import applications
from models.identity.tables import PROXY_PERMISSION, Application, AppStatus
from models.webhooks import service as webhooks
from models.webhooks.tables import WebhookSubscription
from modhub.core.crypto import SecretBox
from modhub.core.errors import ApiError

ADMIN = "admin"
MODERATOR = "moderator"  # reviews resource drafts (admins may too)
ROLES = (ADMIN, MODERATOR)
WANTABLE = (PROXY_PERMISSION,)
MAX_LIST = 20


def _clean_uris(uris: Iterable[str]) -> list[str]:
    out = []
    for uri in (u.strip() for u in uris):
        parts = urlsplit(uri) if uri else None
        if parts is None:
            continue
        if parts.scheme not in ("http", "https") or not parts.netloc or parts.fragment or len(uri) > 500:
            raise ApiError(
                "PARAMETER_INVALID",
                f"redirect URI {uri!r} must be an absolute http(s) URL without a fragment",
            )
        out.append(uri)
    if len(out) > MAX_LIST:
        raise ApiError("PARAMETER_INVALID", f"at most {MAX_LIST} redirect URIs")
    return out


def _ip_entry_ok(entry: str) -> bool:
    if "*" in entry:
        octets = entry.split(".")
        return len(octets) == 4 and all(o == "*" or (o.isdigit() and int(o) <= 255) for o in octets)
    try:
        ipaddress.ip_network(entry, strict=False)
    except ValueError:
        return False
    return True


def _clean_ips(entries: Iterable[str]) -> list[str]:
    out = [e.strip() for e in entries if e.strip()]
    for entry in out:
        if not _ip_entry_ok(entry):
            raise ApiError(
                "PARAMETER_INVALID",
                f"allow-list entry {entry!r} is not an IP address, "
                "a CIDR network or an IPv4 pattern like 10.0.0.*",
            )
    if len(out) > MAX_LIST:
        raise ApiError("PARAMETER_INVALID", f"at most {MAX_LIST} allow-list entries")
    return out


def register(
    session: Session,
    box: SecretBox,
    *,
    owner_user_id: int,
    name: str,
    description: str,
    redirect_uris: Iterable[str],
    ip_allow: Iterable[str],
    wanted_permissions: Iterable[str],
) -> ConsoleApp:
    """Register an application for its owner; it is PENDING until an admin approves it."""
    name = name.strip()
    if not 1 <= len(name) <= 128:
        raise ApiError("PARAMETER_INVALID", "the name must have 1 to 128 characters")
    wanted = sorted({p for p in wanted_permissions if p in WANTABLE})
    made = applications.create(
        session, box, name=name, ip_allow=_clean_ips(ip_allow), redirect_uris=_clean_uris(redirect_uris)
    )
    row = ConsoleApp(
        app_id=made.app_id,
        owner_user_id=owner_user_id,
        description=description.strip()[:2000],
        wanted_permissions=wanted,
        secret_shown=False,
    )
    session.add(row)
    session.flush()
    return row


def owned_apps(session: Session, *, user_id: int) -> list[tuple[Application, ConsoleApp]]:
    """The applications this user registered, oldest first."""
    rows = session.execute(
        select(Application, ConsoleApp)
        .join(ConsoleApp, ConsoleApp.app_id == Application.id)
        .where(ConsoleApp.owner_user_id == user_id)
        .order_by(Application.id)
    )
    return [(a, c) for a, c in rows]


def owned_app(session: Session, *, user_id: int, app_id: int) -> tuple[Application, ConsoleApp]:
    """One application of this user (another user's is RECORD_NOT_FOUND, never shown)."""
    console = session.get(ConsoleApp, app_id)
    if console is None or console.owner_user_id != user_id:
        raise ApiError("RECORD_NOT_FOUND", f"application {app_id} does not exist")
    return applications.get_or_raise(session, app_id=app_id), console


def reveal_secret(session: Session, box: SecretBox, *, user_id: int, app_id: int) -> str:
    """The secret of an approved application, once; afterwards only rotation gives a new one."""
    app, console = owned_app(session, user_id=user_id, app_id=app_id)
    if app.status != AppStatus.APPROVED or console.secret_shown:
        raise ApiError("CONFLICT", "the secret is shown once, after approval; rotate it to get a new one")
    console.secret_shown = True
    session.flush()
    return box.open(app.secret_encrypted)


def rotate_secret(session: Session, box: SecretBox, *, user_id: int, app_id: int, now: dt.datetime) -> str:
    """A new secret for an approved application; the old one ends now (the time is kept)."""
    app, console = owned_app(session, user_id=user_id, app_id=app_id)
    if app.status != AppStatus.APPROVED:
        raise ApiError("CONFLICT", "only an approved application can rotate its secret")
    secret = applications.rotate_secret(session, box, app_id=app_id).secret_key
    console.secret_shown, console.old_secret_ended_at = True, now
    session.flush()
    return secret


def edit(
    session: Session, *, user_id: int, app_id: int, redirect_uris: Iterable[str], ip_allow: Iterable[str]
) -> Application:
    """Change the redirect URIs and the IP allow-list of one's own application."""
    app, _ = owned_app(session, user_id=user_id, app_id=app_id)
    app.redirect_uris, app.ip_allow = _clean_uris(redirect_uris), _clean_ips(ip_allow)
    session.flush()
    return app


def has_role(session: Session, *, user_id: int, role: str = ADMIN) -> bool:
    """True when the user holds this site role."""
    row = session.get(SiteRole, user_id)
    return row is not None and row.role == role


def set_role(session: Session, *, user_id: int, role: str | None) -> None:
    """Grant a site role (or remove it with None)."""
    if role is not None and role not in ROLES:
        raise ApiError("PARAMETER_INVALID", f"unknown role {role!r}; known: {', '.join(ROLES)}")
    row = session.get(SiteRole, user_id)
    if role is None:
        if row is not None:
            session.delete(row)
    elif row is None:
        session.add(SiteRole(user_id=user_id, role=role))
    else:
        row.role = role
    session.flush()


def owned_subscription(session: Session, *, user_id: int, subscription_id: int) -> WebhookSubscription:
    """A webhook subscription of one of the user's applications (another's is RECORD_NOT_FOUND)."""
    sub = webhooks.get_or_raise(session, subscription_id=subscription_id)
    console = session.get(ConsoleApp, sub.app_id)
    if console is None or console.owner_user_id != user_id:
        raise ApiError("RECORD_NOT_FOUND", f"webhook subscription {subscription_id} does not exist")
    return sub
