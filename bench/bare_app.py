"""Baseline for bench/gateway.py: a bare Flask app doing the same work as the full stack.

Same signature check, same Redis quota script, same PostgreSQL reads (application snapshot
cache, proxy user, profile), same envelope; no Connexion, no ASGI, no spec validation.
"""

from __future__ import annotations

import json
import uuid

import flask

from models.identity import get_user, user_profile
from modhub.app import build_platform
from modhub.envelope import RequestState
from modhub.errors import ApiError
from modhub.gateway import Access, Gatekeeper
from modhub.settings import from_env

platform = build_platform(from_env())
gatekeeper = Gatekeeper(platform)
app = flask.Flask(__name__)


@app.get("/openapi/v1/user/profile")
def profile():
    state = RequestState(uuid.uuid4().hex)
    headers = {k.lower(): v for k, v in flask.request.headers.items()}
    try:
        gatekeeper.check(Access.PROXY_USER, "GET", flask.request.path, headers,
                         flask.request.remote_addr or "", state)
    except ApiError as exc:
        return flask.Response(json.dumps({"code": exc.code, "msg": exc.message}), exc.status,
                              mimetype="application/json")
    with platform.db.session() as session:
        data = user_profile(get_user(session, user_id=state.proxy_user_id),
                            zone=platform.settings.time_zone)
    body = {"code": 0, "ok": True, "msg": "success", "level": "info", "data": data,
            "dataType": 1, "traceId": state.request_id}
    response = flask.Response(json.dumps(body, separators=(",", ":")), mimetype="application/json")
    response.headers["X-Request-Id"] = state.request_id
    for name, value in state.headers:
        response.headers[name.decode()] = value.decode()
    return response
