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
