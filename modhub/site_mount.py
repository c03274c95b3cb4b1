"""The Flask app of the site pages, mounted beside Connexion's AsyncApp in the same ASGI app:
a request no API operation claims goes to it (modhub.app.create_app)."""

from __future__ import annotations

import connexion
import flask
from connexion.frameworks import flask as connexion_flask

from modhub import blobs, media, site
from modhub.prepared import CookieSessions
from modhub.settings import Settings
from modhub.web import install_session_lifecycle


def site_app(settings: Settings, platform) -> flask.Flask:
    """The Flask app of the site pages (console, admin, log-in, consent, docs landing, signed
    blob URLs): errors propagate to the envelope handlers as they did under Connexion's FlaskApp."""
    app = flask.Flask(__name__)
    app.json = connexion_flask.FlaskJSONProvider(app)
    app.url_map.converters["float"] = connexion_flask.NumberConverter
    app.url_map.converters["int"] = connexion_flask.IntegerConverter
    app.config["PROPAGATE_EXCEPTIONS"] = True
    app.config["TRAP_BAD_REQUEST_ERRORS"] = True
    app.config["TRAP_HTTP_EXCEPTIONS"] = True
    app.extensions["modhub"] = platform
    app.config["MAX_CONTENT_LENGTH"] = max(settings.max_body_bytes, settings.max_upload_bytes)
    install_session_lifecycle(app)
    site.install(app, settings)  # the site pages: log-in, consent, pairing, SSO landing
    app.session_interface = CookieSessions()  # a request without the cookie skips the serializer
    app.register_blueprint(blobs.bp)  # signed download URLs of the disk storage
    app.register_blueprint(media.bp)  # display images when no CDN is configured
    return app


def serve_beside(app: connexion.AsyncApp, other) -> None:
    """Hand the requests no operation claims to `other` (the site pages), not to a 404.

    The AsyncApp's router sends such a request to its own routes (`app.add_url_rule`) and then
    to each API's router, mounted at the API's base path (`/`: every path); `other` becomes the
    default of both, so the app's own routes still come first.
    """
    inner = app._middleware_app
    inner.router.default = other
    add_api = inner.add_api

    def add_api_then_default(*args, **kwargs):
        api = add_api(*args, **kwargs)
        api.router.default = other
        return api

    inner.add_api = add_api_then_default
