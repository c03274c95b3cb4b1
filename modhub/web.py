"""What handlers use: the request's database session, the platform, and the caller."""

from __future__ import annotations

import hashlib

import flask
from sqlalchemy.orm import Session

from modhub import envelope
from modhub.envelope import ok  # noqa: F401  (handlers import the envelope from here)
from modhub.errors import ApiError
from modhub.validation import JSONIFIER


def platform():
    """The Platform (settings, database, quota, secrets, clock) of the running app."""
    return flask.current_app.extensions["modhub"]


def session() -> Session:
    """The request's one session; committed once when the request succeeds."""
    if "db" not in flask.g:
        flask.g.db = platform().db.session()
    return flask.g.db


def code_guard():
    """The wrong-code counters (modhub.guessing.CodeGuard) of the running app."""
    app = flask.current_app
    if "modhub_code_guard" not in app.extensions:
        from modhub.guessing import CodeGuard
        app.extensions["modhub_code_guard"] = CodeGuard.for_quota(platform().quota)
    return app.extensions["modhub_code_guard"]


def caller() -> envelope.RequestState:
    """The request's state: app id and proxy user resolved by the gateway."""
    return envelope.current.get()


def proxy_user_id() -> int:
    """The proxy user of a P or T operation (the gateway has already required one)."""
    user_id = caller().proxy_user_id
    if user_id is None:
        raise ApiError("PROXY_USER_REQUIRED")
    return user_id


def ok_tagged(data) -> flask.Response:
    """ok(data) with a weak ETag over data alone (not the traceId); a matching If-None-Match
    answers 304 with no body. Data is serialized once, for the tag and the body alike."""
    data_json = JSONIFIER.dumps(data)
    tag = hashlib.blake2b(data_json.encode(), digest_size=16).hexdigest()
    headers = {"ETag": f'W/"{tag}"'}
    if flask.request.if_none_match.contains_weak(tag):
        return flask.Response(status=304, headers=headers)
    return flask.Response(envelope.ok_json(data_json, data), status=200, headers=headers,
                          mimetype="application/json")


def install_session_lifecycle(app: flask.Flask) -> None:
    """Commit the request's session once after a successful handler, always close it."""

    @app.after_request
    def _commit(response):
        db = flask.g.pop("db", None)
        if db is not None:
            try:
                if response.status_code < 400:
                    db.commit()
                else:
                    db.rollback()
            finally:
                db.close()
        return response

    @app.teardown_request
    def _close(_exc):
        db = flask.g.pop("db", None)
        if db is not None:
            db.rollback()
            db.close()
