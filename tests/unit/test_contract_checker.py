"""The tests' contract checker fails on a header or a status an operation does not declare."""

from __future__ import annotations

import pytest

from modhub.contract import Contract
from tests.helpers.contract_checker import ContractChecker


@pytest.fixture(scope="module")
def checker():
    return ContractChecker(Contract.load().document)


def test_declared_and_transport_headers_pass(checker):
    headers = [
        "X-Request-Id",
        "Server-Timing",
        "X-Modhub-Time-Zone",
        "Content-Type",
        "Content-Length",
        "ETag",
    ]
    assert checker.undeclared("GET", "/openapi/v2/mods/12", 200, headers) == []
    detail = checker.operation("GET", "/openapi/v2/mods/12")["operationId"]
    assert (detail, 200, "etag") in checker.seen and (detail, 200, "content-length") in checker.seen


def test_an_undeclared_header_or_status_is_named(checker):
    detail = checker.operation("GET", "/openapi/v2/mods/12")["operationId"]
    assert checker.undeclared("GET", "/openapi/v2/mods/12?x=1", 200, ["X-Debug"]) == [
        f"header x-debug is not declared by {detail} 200"
    ]
    [problem] = checker.undeclared("GET", "/openapi/v2/mods/12", 302, [])
    assert problem.startswith("status 302 is not declared")
    assert checker.undeclared("GET", "/openapi/v2/mods/12", 500, ["X-Request-Id"]) == []  # default: 5xx
    assert checker.undeclared("GET", "/nowhere", 200, []) == ["no operation serves GET /nowhere"]


def test_static_paths_win_over_their_parametrised_siblings(checker):
    assert (
        checker.operation("GET", "/openapi/v2/mods/search")["operationId"]
        != checker.operation("GET", "/openapi/v2/mods/12")["operationId"]
    )


def test_formats_are_checked_on_every_response_with_the_shared_format_checker(checker):
    """The one format checker per factory (tests/helpers/contract_checker.py) still checks
    formats, every time: a postId beyond int64 is refused on each of two checks, the example
    itself passes between."""
    import json

    import httpx

    example = Contract.load().document["paths"]["/openapi/v2/mods/{postId}"]["get"]["responses"]["200"]
    body = example["content"]["application/json"]["example"]

    def response(data: dict) -> httpx.Response:
        return httpx.Response(200, headers={"Content-Type": "application/json"}, content=json.dumps(data))

    too_big = {**body, "data": {**body["data"], "postId": 2**70}}
    for _ in range(2):
        with pytest.raises(Exception, match="is not a 'int64'"):
            checker.check("GET", "/openapi/v2/mods/12", response(too_big))
        checker.check("GET", "/openapi/v2/mods/12", response(body))


def test_declared_headers_are_checked_on_every_response(checker):
    """The declarations read once (tests/helpers/contract_checker.py) still check each value: a
    rate-limit header that is not an integer is refused on each of two checks, a valid one passes
    between, and a header that is absent is not required."""
    import json

    import httpx

    example = Contract.load().document["paths"]["/openapi/v2/mods/{postId}"]["get"]["responses"]["200"]
    body = json.dumps(example["content"]["application/json"]["example"])

    def response(**headers: str) -> httpx.Response:
        return httpx.Response(200, headers={"Content-Type": "application/json", **headers}, content=body)

    for _ in range(2):
        with pytest.raises(Exception, match="to integer type: many"):
            checker.check("GET", "/openapi/v2/mods/12", response(**{"X-RateLimit-Remaining": "many"}))
        checker.check("GET", "/openapi/v2/mods/12", response(**{"X-RateLimit-Remaining": "599"}))
        checker.check("GET", "/openapi/v2/mods/12", response())


def test_each_answer_is_checked_against_its_own_operation_once_the_operations_are_kept(checker):
    """The operation found for a (method, path template) is kept (tests/helpers/contract_checker.py):
    a detail's body passes for any postId, fails where the search's body is expected, and still
    passes for the detail after that."""
    import json

    import httpx

    example = Contract.load().document["paths"]["/openapi/v2/mods/{postId}"]["get"]["responses"]["200"]
    body = json.dumps(example["content"]["application/json"]["example"])
    detail = httpx.Response(200, headers={"Content-Type": "application/json"}, content=body)
    for post_id in (12, 13):
        checker.check("GET", f"/openapi/v2/mods/{post_id}", detail)
    with pytest.raises(Exception, match="data"):
        checker.check("GET", "/openapi/v2/mods/search?keyword=x", detail)
    checker.check("GET", "/openapi/v2/mods/14", detail)
    assert checker.template("GET", "/openapi/v2/mods/14") == "/openapi/v2/mods/{postId}"
    assert checker.template("GET", "/openapi/v2/mods/search") == "/openapi/v2/mods/search"
