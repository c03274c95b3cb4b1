"""The admin pages: review, disable and re-enable applications, change quotas; all audited."""

from __future__ import annotations

from types import SimpleNamespace

import flask
import werkzeug

from models.console import admin, service
from modhub.core.errors import ApiError
from modhub.site.views import _check_csrf, _current_user, _to_login, bp
from modhub.web import platform, session


def _admin_or_refusal():
    """(user, None) for an admin; (None, response) to log in first or a 403 page otherwise."""
    user = _current_user()
    if user is None:
        return None, _to_login()
    if not service.has_role(session(), user_id=user.id):
        refusal = SimpleNamespace(message="This page is for administrators only.", code="forbidden")
        return None, (flask.render_template("error.html", error=refusal), 403)
    return user, None


def _quota_field(name: str) -> int | None:
    raw = flask.request.form.get(name, "").strip()
    if not raw:
        return None
    if not raw.isdigit() or len(raw) > 9:
        raise ApiError("PARAMETER_INVALID", f"{name} must be a whole number")
    return int(raw)


@bp.get("/admin")
def admin_home():
    """Pending applications, every application, and the audit table."""
    user, refusal = _admin_or_refusal()
    if refusal:
        return refusal
    display = platform().display
    audit = [(row, display.time(row.created_at)) for row in admin.audit_log(session())]
    return flask.render_template(
        "admin.html",
        user=user,
        pending=admin.pending(session()),
        apps=admin.every_app(session()),
        audit=audit,
    )


def _change(action) -> werkzeug.Response:
    user, refusal = _admin_or_refusal()
    if refusal:
        return refusal
    _check_csrf()
    action(user.id)
    return flask.redirect(flask.url_for("site.admin_home"))


@bp.post("/admin/apps/<int:app_id>/approve")
def admin_approve(app_id: int):
    """Approve, choosing user:proxy and the quotas."""
    return _change(
        lambda actor: admin.approve(
            session(),
            actor=actor,
            app_id=app_id,
            proxy=flask.request.form.get("proxy") == "yes",
            per_minute=_quota_field("per_minute"),
            per_day=_quota_field("per_day"),
        )
    )


@bp.post("/admin/apps/<int:app_id>/refuse")
def admin_refuse(app_id: int):
    """Refuse with a reason."""
    return _change(
        lambda actor: admin.refuse(
            session(), actor=actor, app_id=app_id, reason=flask.request.form.get("reason", "")
        )
    )


@bp.post("/admin/apps/<int:app_id>/disable")
def admin_disable(app_id: int):
    """Disable an approved application."""
    return _change(lambda actor: admin.set_enabled(session(), actor=actor, app_id=app_id, enabled=False))


@bp.post("/admin/apps/<int:app_id>/enable")
def admin_enable(app_id: int):
    """Enable a disabled application again."""
    return _change(lambda actor: admin.set_enabled(session(), actor=actor, app_id=app_id, enabled=True))


@bp.post("/admin/apps/<int:app_id>/quotas")
def admin_quotas(app_id: int):
    """Change the quotas (empty: the platform default)."""
    return _change(
        lambda actor: admin.set_quotas(
            session(),
            actor=actor,
            app_id=app_id,
            per_minute=_quota_field("per_minute"),
            per_day=_quota_field("per_day"),
        )
    )
