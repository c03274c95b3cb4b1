"""What handlers use: the request's database session, the platform, and the caller."""

from __future__ import annotations

import hashlib

import flask
from sqlalchemy import event
from sqlalchemy.orm import Session

from modhub import envelope
from modhub.core.errors import ApiError
from modhub.envelope import (
    ok,  # noqa: F401  (handlers import the envelope from here)
)
from modhub.etags import none_match

WROTE = "modhub_wrote"


def platform():
    """The Platform (settings, database, quota, secrets, clock) of the running app."""
    return flask.current_app.extensions["modhub"]


def session() -> Session:
    """The request's one session (the gateway's, when it checked a proxy user); committed once
    when the request succeeds and something was written."""
    if "db" not in flask.g:
        state = envelope.current.get(None)
        flask.g.db = (state and state.take_session()) or platform().db.session()
    return flask.g.db


@event.listens_for(Session, "after_flush")
def _flushed(session, _context) -> None:
    session.info[WROTE] = True


@event.listens_for(Session, "do_orm_execute")
def _executed(state) -> None:
    if not state.is_select:  # an UPDATE / DELETE / INSERT statement, or text of any kind
        state.session.info[WROTE] = True


def wrote(db: Session) -> bool:
    """Whether the session flushed or executed anything but a SELECT since it was opened."""
    return bool(db.info.get(WROTE))


def code_guard():
    """The wrong-code counters (modhub.guessing.CodeGuard) of the running app."""
    return platform().code_guard


def caller() -> envelope.RequestState:
    """The request's state: app id and proxy user resolved by the gateway."""
    return envelope.current.get()


def caller_app_id() -> int:
    """The application of a signed operation (the gateway has already verified its signature)."""
    app_id = caller().app_id
    if app_id is None:
        raise ApiError("AUTH_HEADERS_MISSING")
    return app_id


def proxy_user_id() -> int:
    """The proxy user of a P or T operation (the gateway has already required one)."""
    user_id = caller().proxy_user_id
    if user_id is None:
        raise ApiError("PROXY_USER_REQUIRED")
    return user_id


def ok_tagged(data) -> flask.Response:
    """ok(data) with a weak ETag over data alone (not the traceId); a matching If-None-Match
    answers 304 with no body. Data is serialized once, for the tag and the body alike."""
    return ok_tagged_json(envelope.dumps(data), data_type=envelope.data_type(data))


def ok_tagged_json(data_json: str, *, data_type: int) -> flask.Response:
    """ok_tagged() of data already serialized (`data_type` as in the envelope)."""
    tag = hashlib.blake2b(data_json.encode(), digest_size=16).hexdigest()
    headers = {"ETag": f'W/"{tag}"'}
    if none_match(flask.request.headers.get("If-None-Match"), headers["ETag"]):
        return flask.Response(status=304, headers=headers)
    return flask.Response(
        envelope.ok_text(data_json, data_type), status=200, headers=headers, mimetype="application/json"
    )


def install_session_lifecycle(app: flask.Flask) -> None:
    """Commit the request's session once after a successful handler that wrote something;
    always close it (a read-only request ends with the connection's return, no COMMIT)."""

    @app.after_request
    def _commit(response):
        db = flask.g.pop("db", None)
        if db is not None:
            try:
                if response.status_code < 400 and wrote(db):
                    db.commit()
            finally:
                db.close()
        return response

    @app.teardown_request
    def _close(_exc):
        db = flask.g.pop("db", None)
        if db is not None:
            db.rollback()
            db.close()
