"""The developer console: a logged-in user registers applications and manages their own."""

from __future__ import annotations

import flask

from models.console import service
from modhub.site.views import _check_csrf, _current_user, _to_login, bp
from modhub.web import platform, session


def _lines(name: str) -> list[str]:
    return [line for line in flask.request.form.get(name, "").splitlines() if line.strip()]


def _user_or_login():
    user = _current_user()
    return user, (_to_login() if user is None else None)


def _app_page(user, app_id: int, secret: str | None = None, status: int = 200):
    app, console = service.owned_app(session(), user_id=user.id, app_id=app_id)
    settings = platform().settings
    minute, day = platform().quota.usage(app.id)
    ended = platform().display.time(console.old_secret_ended_at)
    return flask.render_template(
        "console_app.html",
        user=user,
        app=app,
        console=console,
        secret=secret,
        old_secret_ended=ended,
        per_minute=app.per_minute or settings.default_per_minute,
        per_day=app.per_day or settings.default_per_day,
        used_minute=minute,
        used_day=day,
    ), status


@bp.get("/console")
def console_home():
    """The user's applications and the registration form."""
    user, login = _user_or_login()
    if login:
        return login
    return flask.render_template(
        "console.html",
        user=user,
        wantable=service.WANTABLE,
        apps=service.owned_apps(session(), user_id=user.id),
    )


@bp.post("/console/apps")
def console_register():
    """Register an application (PENDING until an admin approves it)."""
    user, login = _user_or_login()
    if login:
        return login
    _check_csrf()
    form = flask.request.form
    row = service.register(
        session(),
        platform().secrets,
        owner_user_id=user.id,
        name=form.get("name", ""),
        description=form.get("description", ""),
        redirect_uris=_lines("redirect_uris"),
        ip_allow=_lines("ip_allow"),
        wanted_permissions=form.getlist("wanted"),
    )
    return flask.redirect(flask.url_for("site.console_app", app_id=row.app_id))


@bp.get("/console/apps/<int:app_id>")
def console_app(app_id: int):
    """One application: status, API key, secret (once), quotas and today's usage, settings."""
    user, login = _user_or_login()
    return login or _app_page(user, app_id)


@bp.post("/console/apps/<int:app_id>/secret")
def console_reveal(app_id: int):
    """Show the secret of the approved application, this one time."""
    user, login = _user_or_login()
    if login:
        return login
    _check_csrf()
    secret = service.reveal_secret(session(), platform().secrets, user_id=user.id, app_id=app_id)
    return _app_page(user, app_id, secret)


@bp.post("/console/apps/<int:app_id>/rotate")
def console_rotate(app_id: int):
    """Make a new secret (shown once); the old one stops now."""
    user, login = _user_or_login()
    if login:
        return login
    _check_csrf()
    secret = service.rotate_secret(
        session(), platform().secrets, user_id=user.id, app_id=app_id, now=platform().clock()
    )
    return _app_page(user, app_id, secret)


@bp.post("/console/apps/<int:app_id>/settings")
def console_edit(app_id: int):
    """Change the redirect URIs and the IP allow-list."""
    user, login = _user_or_login()
    if login:
        return login
    _check_csrf()
    service.edit(
        session(),
        user_id=user.id,
        app_id=app_id,
        redirect_uris=_lines("redirect_uris"),
        ip_allow=_lines("ip_allow"),
    )
    return flask.redirect(flask.url_for("site.console_app", app_id=app_id))


@bp.get("/demo/callback")
def demo_callback():
    """The demo app's redirect URI: shows the auth_code and user_id the consent page sent back."""
    args = flask.request.args
    return flask.render_template(
        "demo_callback.html",
        auth_code=args.get("auth_code"),
        user_id=args.get("user_id"),
        state=args.get("state"),
        error=args.get("error"),
        user=_current_user(),
    )
