"""Every response carries the envelope and X-Request-Id, whatever goes wrong."""

import copy
import logging
import time

import pytest

from modhub.app import create_app
from modhub.contract import Contract
from tests.support import SignedClient


def assert_envelope(response, code, status):
    body = response.json()
    assert response.status_code == status, body
    assert body["code"] == code and body["ok"] is (code == 0)
    assert body["traceId"] == response.headers["X-Request-Id"]
    assert "type" not in body and "title" not in body  # no problem+json
    return body


def test_unknown_path_is_404_envelope(client):
    assert_envelope(client.get("/openapi/v2/nowhere"), 200401, 404)


def test_wrong_method_is_405_with_allow(client):
    response = client.delete("/openapi/v2/games")
    assert_envelope(response, 200402, 405)
    assert "GET" in response.headers["Allow"]


# install-launch is marked planned in the contract: it has no handler function, the resolver answers 501.
@pytest.fixture()
def unbuilt(settings, db, quota, creds, checker):
    """An app over a copy of the contract whose install-launch operations name a handler that
    does not exist yet (every operation of the real contract is built now)."""
    contract = Contract.load()
    document = copy.deepcopy(contract.document)
    for path in ("/openapi/v2/mods/{postId}/install-launch", "/openapi/v2/resource/{postId}/install-launch"):
        document["paths"][path]["get"]["x-handler"] = "handlers.files.not_built_yet"
    app = create_app(
        settings, db=db, quota=quota, contract=Contract(document, contract.yaml_bytes, contract.json_bytes)
    )
    with app.test_client() as client:
        yield SignedClient(client, creds)


def test_not_implemented_operation_is_honest_501(unbuilt):
    body = assert_envelope(unbuilt.get("/openapi/v2/mods/1/install-launch"), 200501, 501)
    assert body["data"] is None and "not implemented" in body["msg"]
    assert body["msg"].startswith("getModInstallLaunch ")


def test_planned_alias_names_its_own_operation_id(unbuilt):
    body = assert_envelope(unbuilt.get("/openapi/v2/resource/1/install-launch"), 200501, 501)
    assert body["msg"].startswith("getResourceInstallLaunch ")


def test_validation_failure_names_the_query_parameter(signed):
    body = assert_envelope(signed.get("/openapi/v2/mods/search?pageSize=500"), 200301, 400)
    assert "pageSize" in body["msg"]


def test_validation_failure_names_the_body_field(signed):
    body = assert_envelope(signed.post("/openapi/v2/mods", json={"postIds": []}), 200301, 400)
    assert "postIds" in body["msg"]


def test_malformed_json_has_its_own_code(signed):
    response = signed.post("/openapi/v2/mods", content=b"{nope", headers={"Content-Type": "application/json"})
    assert_envelope(response, 200305, 400)


def test_unsupported_media_type_is_415(signed):
    response = signed.post("/openapi/v2/mods", content=b"postIds=1", headers={"Content-Type": "text/plain"})
    assert_envelope(response, 200303, 415)


@pytest.fixture()
def small_body_app(settings, db, quota, contract):
    return create_app(
        settings.replace(max_body_bytes=64, max_upload_bytes=4096), db=db, quota=quota, contract=contract
    )


def test_oversized_body_is_413(small_body_app, creds):
    from tests.support import SignedClient

    with small_body_app.test_client() as c:
        response = SignedClient(c, creds).post("/openapi/v2/mods", json={"postIds": list(range(1, 50))})
    assert_envelope(response, 200302, 413)


def test_oversized_streamed_body_is_413(small_body_app, creds):
    from tests.support import SignedClient

    def chunks():
        for _ in range(10):
            yield b"[" + b"1," * 20 + b"1]"

    with small_body_app.test_client() as c:
        response = SignedClient(c, creds).post(
            "/openapi/v2/mods", content=chunks(), headers={"Content-Type": "application/json"}
        )
    assert_envelope(response, 200302, 413)


def test_upload_operations_get_the_upload_limit(small_body_app, creds):
    from tests.support import SignedClient

    path = "/openapi/v2/server-post/lobby/1/resources/1/upload"
    with small_body_app.test_client() as c:
        client = SignedClient(c, creds)
        fits = client.post(path, files={"file": ("a.bin", b"x" * 1000)})
        too_big = client.post(path, files={"file": ("a.bin", b"x" * 5000)})
    assert fits.status_code != 413
    assert_envelope(too_big, 200302, 413)


def test_unexpected_exception_is_500_without_internals(
    settings, db, quota, contract, creds, monkeypatch, caplog
):
    import handlers.taxonomy

    def explode(**_):
        raise RuntimeError("db password is hunter2")

    monkeypatch.setattr(handlers.taxonomy, "list_sections", explode)  # serves GET /openapi/v2/games
    from tests.support import SignedClient

    app = create_app(settings, db=db, quota=quota, contract=contract)
    with caplog.at_level(logging.ERROR), app.test_client() as c:
        response = SignedClient(c, creds).get("/openapi/v2/games")
    body = assert_envelope(response, 200500, 500)
    assert "hunter2" not in response.text and "RuntimeError" not in body["msg"]
    assert any(body["traceId"] in r.getMessage() for r in caplog.records)


def test_incoming_request_id_is_honoured(client):
    response = client.get("/openapi/v2/nowhere", headers={"X-Request-Id": "abc-123.DEF_9"})
    assert response.headers["X-Request-Id"] == "abc-123.DEF_9"
    assert response.json()["traceId"] == "abc-123.DEF_9"


@pytest.mark.parametrize("bad", ["", "has space", "x" * 65, "semi;colon"])
def test_malformed_request_id_is_replaced(client, bad):
    response = client.get("/openapi/v2/nowhere", headers={"X-Request-Id": bad})
    assert response.headers["X-Request-Id"] != bad
    assert len(response.headers["X-Request-Id"]) == 32


def test_success_envelope_shape(signed, make_user):
    user_id = make_user(login_name="alice")
    response = signed.get("/openapi/v1/user/profile", headers={"X-Proxy-User-Id": str(user_id)})
    body = assert_envelope(response, 0, 200)
    assert body["msg"] == "success" and body["dataType"] == 1
    assert body["data"]["userId"] == user_id and body["data"]["loginName"] == "alice"


def test_control_characters_in_the_path_are_404(signed):
    assert_envelope(signed.get("/openapi/v2/mods/1%0A"), 200401, 404)


def test_nul_in_a_json_body_is_refused(signed):
    response = signed.post("/openapi/v2/user-binding/link", json={"externalUserId": "a\x00b"})
    body = response.json()
    assert body["code"] in (200301, 200210) and response.status_code in (400, 401)
    response = signed.post("/openapi/v2/mods", json={"postIds": [1], "x": "\x00"})
    assert_envelope(response, 200301, 400)


@pytest.mark.parametrize("path", ["/openapi/v2/nowhere", "/openapi/v2/meta/openapi.json"])
def test_server_timing_on_every_answer(client, path):
    """Server-Timing: app;dur=<ms> on errors and successes alike, a plausible duration."""
    started = time.perf_counter()
    response = client.get(path)
    round_trip_ms = (time.perf_counter() - started) * 1000
    name, _, dur = response.headers["Server-Timing"].partition(";dur=")
    assert name == "app"
    assert 0 < float(dur) <= round_trip_ms


def test_an_optional_body_sent_as_null_is_refused_and_left_out_is_accepted(signed):
    """download-auth's body is optional: leaving it out is fine, a JSON null is not an object
    (QA's schemathesis run sends it as negative data)."""
    path = "/openapi/v2/resource/999999/download-auth"
    sent_null = signed.post(path, content=b"null", headers={"Content-Type": "application/json"})
    assert_envelope(sent_null, 200301, 400)
    left_out = signed.post(path, headers={"Content-Type": "application/json"})
    assert_envelope(left_out, 200404, 404)  # past validation: the resource is unknown
