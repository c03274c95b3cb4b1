"""modhub.spec_check: Connexion's check of the contract (the OpenAPI 3.0 schema and every default),
with jsonschema_rs, gives Connexion's verdict and Connexion's error."""

import copy

import pytest
from connexion.exceptions import InvalidSpecification
from connexion.spec import OpenAPISpecification
from jsonschema import Draft4Validator
from jsonschema.validators import extend

from modhub import spec_check
from modhub.contract import Contract


@pytest.fixture(scope="module")
def document():
    return Contract.load().document


def _checked_by_connexion(document: dict) -> dict[int, dict]:
    """The objects whose default Connexion's own validator checks (its `properties` hook)."""
    seen: dict[int, dict] = {}
    properties = Draft4Validator.VALIDATORS["properties"]

    def record(validator, props, instance, schema):
        errors = list(properties(validator, props, instance, schema))
        yield from errors
        if not errors and isinstance(instance, dict) and "default" in instance:
            seen[id(instance)] = instance

    extend(Draft4Validator, {"properties": record})(OpenAPISpecification.openapi_schema).validate(document)
    return seen


def test_the_same_defaults_as_connexion_are_checked(document):
    connexion = _checked_by_connexion(document)
    mine = {id(node): node for node in spec_check._with_defaults(document)}
    # Connexion also "checks" each Responses object with a default response, against the
    # Responses object itself as a schema: it holds no schema keyword, so that always passes.
    responses = {k for k, node in connexion.items() if any(key[:1].isdigit() for key in node)}
    assert mine and set(mine) == set(connexion) - responses


def test_the_contract_passes(document):
    spec_check.validate_spec(OpenAPISpecification, document)
    assert OpenAPISpecification._validate_spec.__func__ is spec_check.validate_spec


def test_a_default_outside_its_schema_is_connexions_error(document):
    broken = copy.deepcopy(document)
    node = next(n for n in spec_check._with_defaults(broken) if n.get("type") == "integer")
    node["default"] = "twenty"
    with pytest.raises(InvalidSpecification, match="twenty"):
        spec_check.validate_spec(OpenAPISpecification, broken)
    with pytest.raises(InvalidSpecification, match="twenty"):
        spec_check._connexion_check.__func__(OpenAPISpecification, broken)


def test_a_document_outside_the_openapi_schema_is_connexions_error(document):
    broken = copy.deepcopy(document)
    operation = next(iter(broken["paths"].values()))["get"]
    del operation["responses"]
    with pytest.raises(InvalidSpecification, match="responses"):
        spec_check.validate_spec(OpenAPISpecification, broken)


def test_a_property_called_default_is_a_schema_not_a_default():
    schema = {
        "type": "object",
        "properties": {"default": {"type": "integer", "default": 3}, "example": {"type": "string"}},
        "example": {"default": "data, not a default"},
    }
    found = list(spec_check._with_defaults({"components": {"schemas": {"S": schema}}}))
    assert found == [schema["properties"]["default"]]
