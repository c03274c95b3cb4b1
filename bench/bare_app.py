"""Baseline for bench/gateway.py and bench/catalog.py: a bare Flask app doing the same work as
the full stack.

Same signature check, same Redis quota script, same PostgreSQL reads (application snapshot
cache, proxy user, profile; or a resource's detail through models.catalog.service), same
envelope; no Connexion, no ASGI, no spec validation.
"""

from __future__ import annotations

import datetime as dt
import json
import uuid

import flask

from models.catalog import service as catalog
from models.identity.records import user_profile
from models.identity.service import get_user
from modhub.app import build_platform
from modhub.core.errors import ApiError
from modhub.envelope import RequestState
from modhub.gateway import Access, Gatekeeper
from modhub.settings import from_env

platform = build_platform(from_env())
gatekeeper = Gatekeeper(platform)
app = flask.Flask(__name__)


def answer(access: Access, read) -> flask.Response:
    """Check the request like the gateway, then envelope read(session, state)."""
    state = RequestState(uuid.uuid4().hex)
    headers = {k.lower(): v for k, v in flask.request.headers.items()}
    try:
        gatekeeper.check(
            access, flask.request.method, flask.request.path, headers, flask.request.remote_addr or "", state
        )
        with platform.db.session() as session:
            data = read(session, state)
    except ApiError as exc:
        return flask.Response(
            json.dumps({"code": exc.code, "msg": exc.message}), exc.status, mimetype="application/json"
        )
    body = {
        "code": 0,
        "ok": True,
        "msg": "success",
        "level": "info",
        "data": data,
        "dataType": 1,
        "traceId": state.request_id,
    }
    response = flask.Response(
        json.dumps(body, separators=(",", ":"), ensure_ascii=False), mimetype="application/json"
    )
    response.headers["X-Request-Id"] = state.request_id
    for name, value in state.headers:
        response.headers[name.decode()] = value.decode()
    return response


@app.get("/openapi/v1/user/profile")
def profile():
    return answer(
        Access.PROXY_USER,
        lambda session, state: user_profile(
            get_user(session, user_id=state.proxy_user_id), display=platform.display
        ),
    )


@app.get("/openapi/v2/mods/<int:post_id>")
def detail(post_id: int):
    return answer(
        Access.KEY,
        lambda session, _: catalog.get_detail(
            session, post_id=post_id, display=platform.display, today=dt.datetime.now(dt.UTC).date()
        ),
    )
