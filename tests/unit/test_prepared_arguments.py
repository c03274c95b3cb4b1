"""The arguments of an operation without a request body (modhub.prepared.BodilessParameters) are
the ones Connexion's own get_arguments gives, for every such operation of the contract: path
parameters typed, query parameters typed, the contract's defaults where a query leaves them out."""

from __future__ import annotations

import asyncio

from connexion.context import _context, _operation
from connexion.decorators.parameter import get_arguments, pythonic

from modhub.prepared import BodilessParameters, PreparedRequestValidation, PreparedValidationOperation


def _operations(app) -> list:
    """The contract's operations (Connexion's OpenAPIOperation objects) from request validation."""
    with app.test_client() as c:
        assert c.get("/openapi/v2/meta/openapi.json").status_code == 200  # the stack is built
    (validation,) = [m for m in app.middleware.middleware_stack if isinstance(m, PreparedRequestValidation)]
    return [
        op._operation
        for apis in validation.apis.values()
        for api in apis
        for op in api.operations.values()
        if isinstance(op, PreparedValidationOperation)
    ]


def _sample(definition: dict) -> str:
    schema = definition.get("schema", {})
    if schema.get("type") == "integer":
        return str(schema.get("minimum", 1) + 2)
    if schema.get("type") == "boolean":
        return "true"
    if schema.get("enum"):
        return str(schema["enum"][-1])
    return "x"


class _Request:
    def __init__(self, path: dict, query: dict):
        self.path_params, self.query_params = path, query


def test_every_bodiless_operation_gets_connexions_own_arguments(app):
    operations = [op for op in _operations(app) if not op.is_request_body_defined]
    assert len(operations) > 60
    compared = 0
    for operation in operations:
        path = {p["name"]: _sample(p) for p in operation.parameters if p["in"] == "path"}
        queries = [p for p in operation.parameters if p["in"] == "query"]
        for query in ({}, {p["name"]: _sample(p) for p in queries}):
            token = _operation.set(operation)
            context = _context.set({})
            try:
                parsed = operation._uri_parser_class(operation.parameters, operation.body_definition())
                listed = {k: [v] for k, v in query.items()}  # as ConnexionRequest hands them over
                request = _Request(parsed.resolve_path(path), parsed.resolve_query(listed))
                seen = {}

                async def handler(seen=seen, **kwargs):
                    seen.update(kwargs)

                asyncio.run(BodilessParameters(framework=None, pythonic_params=True)(handler)(request))
                theirs = get_arguments(
                    operation,
                    path_params=request.path_params,
                    query_params=request.query_params,
                    body=None,
                    files={},
                    arguments=[],
                    has_kwargs=True,
                    sanitize=pythonic,
                    content_type="application/json",
                )
            finally:
                _operation.reset(token)
                _context.reset(context)
            assert seen == {pythonic(k): v for k, v in theirs.items()}, operation.operation_id
            compared += 1
    assert compared == 2 * len(operations)
