"""Connexion's and Flask's per-request set-up done once (modhub.prepared)."""

import flask
from connexion.apps.asynchronous import AsyncOperation

from modhub import prepared
from modhub.prepared import CookieSessions, PreparedAsyncOperation


def test_every_contract_operation_is_prepared_once(app, monkeypatch):
    with app.test_client() as c:
        assert c.get("/openapi/v2/meta/openapi.json").status_code == 200  # Connexion builds
        operations = [op for api in app._middleware_app.apis[""] for op in api.operations.values()]
        assert not any(isinstance(op, AsyncOperation) for op in operations)
        assert sum(isinstance(op, PreparedAsyncOperation) for op in operations) > 100
        built = []
        monkeypatch.setattr(
            prepared.StarletteDecorator, "decorate", lambda self, fn: built.append(fn)
        )  # would break any request
        answer = c.get("/openapi/v2/meta/openapi.json")
    assert answer.status_code == 200 and answer.json()["openapi"].startswith("3.") and built == []


def test_parameter_names_are_converted_as_connexion_does():
    from connexion.decorators.parameter import pythonic

    assert pythonic("postId") == "post_id" and pythonic("type") == "type_"
    assert pythonic("pageNum") == "page_num" and pythonic.cache_info().hits >= 0


def test_sessions_without_a_cookie_are_empty_and_with_one_are_read():
    site = flask.Flask(__name__)
    site.secret_key = b"k" * 32
    site.session_interface = CookieSessions()

    @site.route("/set")
    def set_():
        flask.session["who"] = "ada"
        return "set"

    @site.route("/get")
    def get():
        return flask.session.get("who", "nobody")

    c = site.test_client()
    assert c.get("/get").text == "nobody"
    assert "Set-Cookie" not in c.get("/get").headers
    c.get("/set")
    assert c.get("/get").text == "ada"
    c.set_cookie("session", "forged")
    assert c.get("/get").text == "nobody"


def test_an_operation_without_a_request_body_never_reads_one(signed, monkeypatch):
    """Its arguments come from the path and query: a body sent anyway (a form with a file here)
    is not read, not parsed, and passes nothing to the handler."""
    from connexion.lifecycle import ConnexionRequest

    def never(self, *args, **kwargs):
        raise AssertionError("the body of an operation without one was read")

    for name in ("get_body", "files", "form", "json"):
        monkeypatch.setattr(ConnexionRequest, name, never)
    answer = signed.get("/openapi/v2/mods/999999", files={"upload": ("a.txt", b"data")})
    assert answer.status_code == 404 and answer.json()["code"] != 0  # the unknown post's answer
    assert signed.get("/openapi/v2/mods/search", params={"pageSize": 5}).json()["code"] == 0
