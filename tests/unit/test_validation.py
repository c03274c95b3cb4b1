"""Parameter validation: validators built once per contract schema, messages naming the field."""

from modhub.validation import NamedParameterValidator, _schema_validator


def test_one_validator_per_schema_object():
    schema = {"type": "integer", "minimum": 1}
    twin = dict(schema)
    assert _schema_validator(schema) is _schema_validator(schema)
    assert _schema_validator(twin) is not _schema_validator(schema)  # identity, not equality
    assert _schema_validator(twin).schema is twin


def test_messages_name_the_parameter_and_reuse_keeps_judging():
    param = {"name": "pageSize", "in": "query", "schema": {"type": "integer", "maximum": 100}}
    check = NamedParameterValidator.validate_parameter
    assert check("query", 20, param) is None
    assert check("query", 101, param) == "query parameter 'pageSize': 101 is greater than the maximum of 100"
    assert check("query", 100, param) is None
    assert "NUL" in check("query", "a\x00b", {"name": "keyword", "schema": {"type": "string"}})


def test_a_list_of_plain_integers_is_judged_as_jsonschema_judges_it():
    """The batch's fast pass over `items: {type: integer, format: int64, minimum: 1}` accepts
    exactly what the validator without it accepts, and a list it does not accept gets the same
    errors, item by item."""
    import random

    from connexion.json_schema import Draft4RequestValidator

    from modhub.validation import FORMATS, BodySchemaValidator, _typed_int64

    plain = _typed_int64(Draft4RequestValidator)
    schemas = [
        {"type": "array", "items": {"type": "integer", "format": "int64", "minimum": 1}},
        {
            "type": "array",
            "items": {"type": "integer", "format": "int32", "maximum": 10, "exclusiveMaximum": True},
        },
        {"type": "array", "items": {"type": "integer"}},
        {"type": "array", "items": {"type": "integer", "minimum": 0.5}},  # not plain: jsonschema alone
        {"type": "array", "items": {"type": "integer", "enum": [1, 2]}},  # not plain: jsonschema alone
        {  # annotations validate nothing: still plain
            "type": "array",
            "items": {
                "type": "integer",
                "format": "int64",
                "minimum": 1,
                "example": 3,
                "x-modhub-id-of": "X.id",
            },
        },
        {"type": "array", "items": {"type": "integer", "example": 2, "multipleOf": 2}},  # not plain
    ]
    values = [0, 1, 2, 9, 10, 11, -1, 2**31, 2**63 - 1, 2**63, -(2**63) - 1, True, False, 1.0, 2.5, None, "1"]
    rng = random.Random(5)
    lists = [[v] for v in values] + [rng.choices(values, k=rng.randint(0, 6)) for _ in range(300)]
    lists += [list(range(1, 51)), [5] * 50 + ["x"]]
    for schema in schemas:
        fast, slow = (
            BodySchemaValidator(schema, format_checker=FORMATS),
            plain(schema, format_checker=FORMATS),
        )
        for instance in lists:
            got = sorted((list(e.absolute_path), e.message) for e in fast.iter_errors(instance))
            want = sorted((list(e.absolute_path), e.message) for e in slow.iter_errors(instance))
            assert got == want, (schema, instance)


def test_the_body_validator_is_kept_per_schema():
    from modhub.validation import EnvelopeJSONBodyValidator

    schema = {"type": "object"}

    def validator():
        return EnvelopeJSONBodyValidator(schema=schema, encoding="utf-8", strict_validation=False)._validator

    assert validator() is validator()


def test_the_contracts_integer_parameters_are_judged_as_jsonschema_judges_them():
    """Every integer parameter of the contract (an id with its example, a page size...) that the
    fast check takes: a value passes it only if jsonschema accepts the value."""
    from modhub.contract import Contract
    from modhub.validation import _plain_check

    document = Contract.load().document
    schemas = [
        p["schema"]
        for p in document["components"]["parameters"].values()
        if p.get("schema", {}).get("type") == "integer"
    ]
    taken = [s for s in schemas if _plain_check(s) is not None]
    assert len(taken) >= len(schemas) // 2 and any("example" in s for s in taken)
    values = [0, 1, 2, 10, 100, 101, 1000, -1, 2**31, 2**63 - 1, 2**63, True, 1.0, "1", None]
    for schema in taken:
        for value in values:
            accepted = not list(_schema_validator(schema).iter_errors(value))
            assert _plain_check(schema)(value) == accepted, (schema, value)
