"""Console pages of an application's webhook subscriptions and their delivery log."""

from __future__ import annotations

import flask

from models.console import service
from models.webhooks import service as webhooks
from models.webhooks.tables import SubscriptionStatus
from modhub.core.webhook_signing import EVENT_KINDS
from modhub.site.views import _check_csrf, _current_user, _to_login, bp
from modhub.web import platform, session


def _page(user, app_id: int, secret: str | None = None, secret_for: int | None = None):
    app, _ = service.owned_app(session(), user_id=user.id, app_id=app_id)
    subs = webhooks.list_(session(), app_id=app_id)
    logs = {s.id: webhooks.list_deliveries(session(), subscription_id=s.id, limit=20) for s in subs}
    return flask.render_template(
        "console_hooks.html",
        user=user,
        app=app,
        subs=subs,
        logs=logs,
        kinds=EVENT_KINDS,
        secret=secret,
        secret_for=secret_for,
    )


@bp.get("/console/apps/<int:app_id>/webhooks")
def console_hooks(app_id: int):
    """The subscriptions of one application, each with its delivery log."""
    user = _current_user()
    return _to_login() if user is None else _page(user, app_id)


@bp.post("/console/apps/<int:app_id>/webhooks")
def console_hook_add(app_id: int):
    """Subscribe a callback URL; its secret is shown this one time."""
    user = _current_user()
    if user is None:
        return _to_login()
    _check_csrf()
    service.owned_app(session(), user_id=user.id, app_id=app_id)
    sub, secret = webhooks.create(
        session(),
        platform().secrets,
        app_id=app_id,
        url=flask.request.form.get("url", "").strip(),
        events=flask.request.form.getlist("events"),
        allow_private=platform().settings.webhook_allow_private,
    )
    return _page(user, app_id, secret, sub.id)


_STATUS = {"pause": SubscriptionStatus.PAUSED, "resume": SubscriptionStatus.ACTIVE}


@bp.post("/console/webhooks/<int:subscription_id>/<action>")
def console_hook_change(subscription_id: int, action: str):
    """pause, resume, rotate (new secret shown once), remove, test (send a test event), redeliver."""
    user = _current_user()
    if user is None:
        return _to_login()
    _check_csrf()
    sub = service.owned_subscription(session(), user_id=user.id, subscription_id=subscription_id)
    app_id, secret = sub.app_id, None
    if action in _STATUS:
        webhooks.set_status(session(), subscription_id=sub.id, status=_STATUS[action])
    elif action == "rotate":
        _, secret = webhooks.rotate_secret(
            session(), platform().secrets, subscription_id=sub.id, now=platform().clock()
        )
    elif action == "remove":
        webhooks.remove(session(), subscription_id=sub.id)
    elif action == "test":
        webhooks.send_test(session(), subscription_id=sub.id, now=platform().clock())
    elif action == "redeliver":
        webhooks.redeliver(
            session(),
            event_id=flask.request.form.get("event_id", ""),
            subscription_id=sub.id,
            now=platform().clock(),
        )
    else:
        flask.abort(404)
    if secret is not None:
        return _page(user, app_id, secret, subscription_id)
    return flask.redirect(flask.url_for("site.console_hooks", app_id=app_id))
