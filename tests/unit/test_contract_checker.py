"""The tests' contract checker fails on a header or a status an operation does not declare."""

from __future__ import annotations

import pytest

from modhub.contract import Contract
from tests.support import ContractChecker


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
