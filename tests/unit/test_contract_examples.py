"""Every operation shows a request and a success example, and every example fits its schema.

Parameter examples are values of the demo catalogue (`modhub demo seed`); request and response
bodies are recorded from the suite by openapi/write_examples.py (multipart uploads: hand-written).
"""

import pytest
from openapi_schema_validator import OAS30Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT4

from modhub.contract import Contract

DOC = Contract.load().document  # the parse kept beside the YAML (modhub.contract)
REGISTRY = Registry().with_resource("", Resource(contents=DOC, specification=DRAFT4))
METHODS = ("get", "post", "put", "patch", "delete")
OPS = [(m.upper(), p, o) for p, item in DOC["paths"].items() for m, o in item.items() if m in METHODS]
# What a success example cannot show: the contract itself, and file bytes.
NO_SUCCESS_EXAMPLE = {"application/octet-stream", "application/yaml"}
DOCUMENT = {"getOpenApiJson", "getOpenApiYaml"}


def _parameter(p: dict) -> dict:
    return DOC["components"]["parameters"][p["$ref"].rsplit("/", 1)[1]] if "$ref" in p else p


ROOT = OAS30Validator(DOC, registry=REGISTRY)  # refs resolve against the whole document


def _fits(schema: dict, value) -> None:
    ROOT.evolve(schema=schema).validate(value)


@pytest.mark.parametrize("method,path,op", OPS, ids=[o["operationId"] for _, _, o in OPS])
def test_operation_has_request_and_success_examples_that_fit(method, path, op):
    for parameter in map(_parameter, op.get("parameters", [])):
        example = parameter.get("example", parameter["schema"].get("example"))
        assert example is not None, f"parameter {parameter['name']} has no example"
        _fits(parameter["schema"], example)
    for media, content in op.get("requestBody", {}).get("content", {}).items():
        assert "example" in content, f"request body {media} has no example"
        _fits(content["schema"], content["example"])
    success = op["responses"].get("200", {}).get("content", {})
    for media, content in success.items():
        if media in NO_SUCCESS_EXAMPLE or op["operationId"] in DOCUMENT:
            continue
        assert "example" in content, f"200 {media} has no example"
        _fits(content["schema"], content["example"])
