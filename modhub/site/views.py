"""Views of the site pages; like handlers they stay thin and call the domain functions."""

from __future__ import annotations

import hmac
import secrets
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import flask

from models.identity import accounts, oauth
from models.identity.service import get_user
from models.identity.tables import User
from modhub.addresses import client_address
from modhub.core.errors import ApiError
from modhub.web import code_guard, platform, session

bp = flask.Blueprint(
    "site", __name__, template_folder="templates", static_folder="static", static_url_path="/site-static"
)


@bp.errorhandler(ApiError)
def _api_error(exc: ApiError):
    return flask.render_template("error.html", error=exc), exc.status


@bp.after_request
def _headers(response):
    # The consent page must not be framed (clickjacking), and no URL may leak a ticket onwards.
    response.headers["X-Frame-Options"] = "DENY"
    response.headers["Content-Security-Policy"] = "default-src 'self'; frame-ancestors 'none'"
    response.headers["Referrer-Policy"] = "no-referrer"
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.before_request
def _sso_landing():
    """Any site page accepts ?sso_ticket=: log its user in, then reload the page without it."""
    ticket = flask.request.args.get("sso_ticket")
    if ticket is None:
        return None
    now = platform().clock()
    with code_guard().guarded("sso", [("addr", _client_address())], now.timestamp()):
        user = oauth.consume_sso_ticket(session(), ticket=ticket, now=now)
    _log_in(user)
    rest = [(k, v) for k, v in flask.request.args.items(multi=True) if k != "sso_ticket"]
    return flask.redirect(flask.request.path + (f"?{urlencode(rest)}" if rest else ""))


def csrf_token() -> str:
    """This session's CSRF token, made on first use."""
    if "csrf" not in flask.session:
        flask.session["csrf"] = secrets.token_urlsafe(32)
    return flask.session["csrf"]


bp.add_app_template_global(csrf_token)


def _check_csrf() -> None:
    sent = flask.request.form.get("csrf_token", "")
    expected = flask.session.get("csrf", "")
    if not expected or not hmac.compare_digest(sent.encode(), expected.encode()):
        raise ApiError(
            "PARAMETER_INVALID",
            "the form expired or did not come from this site; reload the page and try again",
        )


def _log_in(user: User) -> None:
    flask.session.clear()  # a fresh session (and CSRF token) on every log-in
    flask.session["uid"] = user.id


def _current_user() -> User | None:
    uid = flask.session.get("uid")
    return get_user(session(), user_id=uid) if isinstance(uid, int) else None


def _safe_next(target: str | None) -> str:
    """A local path to go to after log-in (never another host: no open redirect)."""
    if not target or not target.startswith("/") or target.startswith("//") or "\\" in target:
        return flask.url_for("site.home")
    return target


def _to_login(back: str | None = None):
    """Send the visitor to log in, then back to `back` (default: this page)."""
    return flask.redirect(flask.url_for("site.login", next=back or flask.request.full_path.rstrip("?")))


@bp.get("/")
def home():
    """The landing page: who is logged in."""
    return flask.render_template("home.html", user=_current_user())


@bp.route("/login", methods=["GET", "POST"])
def login():
    """Log in with a username or login name and a password."""
    target = _safe_next(flask.request.values.get("next"))
    if flask.request.method == "GET":
        return flask.render_template("login.html", next=target, error=None)
    _check_csrf()
    login_text, address = flask.request.form.get("login", "").strip(), _client_address()
    throttle = flask.current_app.extensions["modhub"].login_throttle
    if throttle.blocked(login_text, address):
        return flask.render_template(
            "login.html", next=target, error=("Too many failed log-ins; try again in 15 minutes.")
        ), 429
    user = accounts.authenticate(session(), login=login_text, password=flask.request.form.get("password", ""))
    if user is None:
        throttle.failed(login_text, address)
        return flask.render_template("login.html", next=target, error="Wrong login or password."), 401
    _log_in(user)
    return flask.redirect(target)


def _client_address() -> str:
    settings = platform().settings
    return client_address(
        flask.request.remote_addr or "",
        flask.request.headers.get("X-Forwarded-For"),
        settings.trusted_networks,
    )


@bp.post("/logout")
def logout():
    """Log out."""
    _check_csrf()
    flask.session.clear()
    return flask.redirect(flask.url_for("site.home"))


def _consent_request(values) -> tuple[int, str, str | None]:
    raw_id, redirect_uri = values.get("app_id", ""), values.get("redirect_uri", "")
    if not raw_id.isdigit() or len(raw_id) > 18 or not redirect_uri:
        raise ApiError("PARAMETER_INVALID", "app_id and redirect_uri are required")
    return int(raw_id), redirect_uri, values.get("state")


def _with_query(url: str, **params) -> str:
    parts = urlsplit(url)
    query = parse_qsl(parts.query, keep_blank_values=True)
    query += [(k, v) for k, v in params.items() if v is not None]
    return urlunsplit(parts._replace(query=urlencode(query)))


@bp.get("/openapi-authorize")
def authorize():
    """The consent page: the logged-in user lets an application act for them."""
    app_id, redirect_uri, state = _consent_request(flask.request.args)
    app = oauth.consent_app(session(), app_id=app_id, redirect_uri=redirect_uri)
    user = _current_user()
    if user is None:
        return _to_login()
    return flask.render_template("authorize.html", app=app, user=user, redirect_uri=redirect_uri, state=state)


@bp.post("/openapi-authorize")
def authorize_decision():
    """Agree (redirect with auth_code and user_id) or deny (redirect with error=access_denied)."""
    _check_csrf()
    app_id, redirect_uri, state = _consent_request(flask.request.form)
    user = _current_user()
    if user is None:  # logged out meanwhile: log in, then see the consent page again
        return _to_login(
            flask.url_for("site.authorize", app_id=app_id, redirect_uri=redirect_uri, state=state)
        )
    if flask.request.form.get("decision") != "allow":
        oauth.consent_app(session(), app_id=app_id, redirect_uri=redirect_uri)
        return flask.redirect(_with_query(redirect_uri, error="access_denied", state=state))
    code = oauth.create_auth_code(
        session(), app_id=app_id, user_id=user.id, redirect_uri=redirect_uri, now=platform().clock()
    )
    return flask.redirect(_with_query(redirect_uri, auth_code=code, user_id=str(user.id), state=state))


@bp.route("/pairing", methods=["GET", "POST"])
def pairing():
    """Generate a pairing code (8 characters, valid one day) to type into a server panel."""
    user = _current_user()
    if user is None:
        return _to_login()
    code = expires = None
    if flask.request.method == "POST":
        _check_csrf()
        code, until = oauth.create_pairing_code(session(), user_id=user.id, now=platform().clock())
        expires = platform().display.time(until)
    return flask.render_template("pairing.html", user=user, code=code, expires=expires)
