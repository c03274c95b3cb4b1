"""Schemathesis over the identity operations: no server errors, every answer matches the contract."""

from __future__ import annotations

import hypothesis
import pytest
from hypothesis import HealthCheck, settings
from schemathesis.specs.openapi.checks import positive_data_acceptance

from modhub.guessing import CodeGuard
from tests.support import asgi_schema, validate_case

pytestmark = pytest.mark.slow  # live servers, processes or migrations

MAX_EXAMPLES = 60
# Schema-valid bodies are still refused by business rules with 400 and their own codes (an unknown
# authCode is 200911, a pairing code 200913, an amount with 5 decimals 200301); every other check
# (no 5xx, status and body documented, headers) runs.
EXCLUDED = [positive_data_acceptance]
IDENTITY_PREFIXES = (
    "/openapi/v2/oauth/",
    "/openapi/v2/pairing/",
    "/openapi/v2/proxy-user/",
    "/openapi/v2/user-binding/",
    "/openapi/v2/sso/",
    "/openapi/v2/provider/",
)


def _operations(app):
    schema = asgi_schema(app)
    ops = [r.ok() for r in schema.get_all_operations()]
    return [op for op in ops if op.path.startswith(IDENTITY_PREFIXES)]


@pytest.fixture()
def roomy(make_app, make_user, make_token):
    """A proxy application whose quota the fuzzing cannot exhaust (429s would test nothing)."""
    creds = make_app(permissions=["user:proxy"], per_minute=1_000_000, per_day=10_000_000)
    user = make_user()
    return creds, {"X-Proxy-User-Id": str(user), "X-Proxy-Access-Token": make_token(creds.app_id, user)}


@pytest.mark.parametrize("path_prefix", IDENTITY_PREFIXES)
def test_identity_operations_conform(app, roomy, path_prefix):
    creds, proxy_headers = roomy
    # Wrong codes lock a guesser out (200915); the fuzzing sends 60 of them per operation.
    app.app.extensions["modhub"].code_guard = CodeGuard(limits={"app": 10**9, "user": 10**9})
    ops = [op for op in _operations(app) if op.path.startswith(path_prefix)]
    assert ops
    statuses = set()
    for op in ops:

        @settings(
            max_examples=MAX_EXAMPLES, deadline=None, database=None, suppress_health_check=list(HealthCheck)
        )
        @hypothesis.given(case=op.as_strategy())
        def run(case):
            headers = {**creds.headers(case.method.upper(), case.formatted_path), **proxy_headers}
            response = case.call(headers=headers)
            statuses.add(response.status_code)
            validate_case(case, response, excluded_checks=EXCLUDED)

        run()
    assert 429 not in statuses
