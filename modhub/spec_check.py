"""Connexion's check of the contract when an app is built, at the speed of jsonschema_rs.

Connexion validates the whole document against its OpenAPI 3.0 schema, and every default against
the schema that holds it, with the pure-Python jsonschema, on every app it builds: 1.9 s of CPU,
two thirds of a server process's start (each uvicorn worker, each server a test starts). The same
two checks run here: the document against Connexion's own OpenAPI 3.0 schema with jsonschema_rs
(about 5 ms), then each default with Connexion's own nullable-aware instance validator. A document
that fails either is validated again by Connexion's code, so the error is the one Connexion raises.
"""

from __future__ import annotations

from collections.abc import Iterator

import jsonschema_rs
from connexion.json_schema import NullableTypeValidator
from connexion.spec import OpenAPISpecification
from jsonschema import Draft4Validator
from jsonschema.validators import extend

# Maps whose keys are names (a property called "default" is no default), and values that are data.
_NAMED = {
    "properties",
    "schemas",
    "paths",
    "responses",
    "content",
    "headers",
    "callbacks",
    "variables",
    "securitySchemes",
    "parameters",
    "requestBodies",
    "links",
    "encoding",
}
_DATA = {"example", "examples", "default", "enum"}
_connexion_check = OpenAPISpecification._validate_spec
_meta_schema = jsonschema_rs.Draft4Validator(OpenAPISpecification.openapi_schema)
_InstanceValidator = extend(Draft4Validator, {"type": NullableTypeValidator})


def _with_defaults(node, names: bool = False, in_link: bool = False) -> Iterator[dict]:
    """Every object of the document that has a default: schemas and server variables."""
    if isinstance(node, list):
        for item in node:
            yield from _with_defaults(item, False, in_link)
    elif isinstance(node, dict):
        if names:  # a map of named objects (a Responses object's "default" is a response)
            for value in node.values():
                yield from _with_defaults(value, False, in_link)
            return
        if "default" in node:
            yield node
        for key, value in node.items():
            if (
                key.startswith("x-") or key in _DATA or (in_link and key in ("parameters", "requestBody"))
            ):  # a link's values
                continue
            yield from _with_defaults(value, key in _NAMED, in_link or key == "links")


def _defaults_hold(document: dict) -> bool:
    root = _InstanceValidator(document)
    return all(root.evolve(schema=node).is_valid(node["default"]) for node in _with_defaults(document))


def validate_spec(cls, spec: dict) -> None:
    if not (_meta_schema.is_valid(spec) and _defaults_hold(spec)):
        _connexion_check.__func__(cls, spec)  # raises Connexion's InvalidSpecification


def install() -> None:
    """Connexion's OpenAPI 3 specifications are checked by validate_spec from now on."""
    OpenAPISpecification._validate_spec = classmethod(validate_spec)
