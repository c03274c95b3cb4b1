"""The platform site pages: log-in, the authorization (consent) page, pairing codes, SSO landing.

They are server-rendered HTML on the inner Flask app, outside the API contract. Sessions are
signed cookies keyed from the encryption key; every POST form carries a CSRF token.
"""

from __future__ import annotations

import hashlib
import hmac

import flask

from modhub.site import admin, console, console_hooks, moderation, resource_page  # noqa: F401  (their routes register on bp)
from modhub.site.throttle import LoginThrottle
from modhub.site.views import bp


def session_secret(encryption_key: str) -> bytes:
    """The Flask session key, derived from the encryption key so no new setting is needed."""
    return hmac.new(encryption_key.encode(), b"modhub site session v1", hashlib.sha256).digest()


def install(app: flask.Flask, settings) -> None:
    """Register the site pages and their session cookie settings on the Flask app."""
    app.secret_key = session_secret(settings.encryption_key)
    app.config.update(
        SESSION_COOKIE_NAME="modhub_site",
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_SECURE=settings.site_url.startswith("https://"),
    )
    platform = app.extensions["modhub"]
    platform.login_throttle = LoginThrottle.for_redis(platform.redis)
    app.register_blueprint(bp)
