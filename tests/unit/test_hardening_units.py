"""Pure helpers of the hardening work: log escaping, relative redirects, int64 formats."""

from __future__ import annotations

import asyncio
import json

import pytest
import sqlalchemy.exc
from jsonschema import Draft4Validator, ValidationError

from modhub.edge import _relative_location
from modhub.errors_http import on_crash, printable
from modhub.validation import FORMATS


def test_printable_escapes_control_characters():
    assert printable("name\nforged: line\r\x00\u2028") == "name\\x0aforged: line\\x0d\\x00\\x2028"


@pytest.mark.parametrize(
    "location,host,expected",
    [
        (b"http://evil.example/openapi/v2/mods/1?a=1", b"evil.example", b"/openapi/v2/mods/1?a=1"),
        (
            b"https://launcher.example/cb?auth_code=X",
            b"modhub.example",
            b"https://launcher.example/cb?auth_code=X",
        ),
        (b"/pairing?x=1", b"modhub.example", b"/pairing?x=1"),
    ],
)
def test_only_self_redirects_become_relative(location, host, expected):
    assert _relative_location((b"location", location), host) == (b"location", expected)


@pytest.mark.parametrize(
    "fmt,value,ok",
    [
        ("int64", 2**63 - 1, True),
        ("int64", 2**63, False),
        ("int64", -(2**63), True),
        ("int64", -(2**63) - 1, False),
        ("int32", 2**31, False),
        ("int32", 5, True),
        ("int64", "x", True),
    ],
)
def test_integer_formats_are_bounds(fmt, value, ok):
    validator = Draft4Validator({"format": fmt}, format_checker=FORMATS)
    if ok:
        validator.validate(value)
    else:
        with pytest.raises(ValidationError):
            validator.validate(value)


def test_an_integer_without_format_is_bounded_to_int64():
    from modhub.validation import BodySchemaValidator

    validator = BodySchemaValidator(
        {"type": "object", "properties": {"count": {"type": "integer"}}}, format_checker=FORMATS
    )
    validator.validate({"count": 2**63 - 1})
    with pytest.raises(ValidationError):
        validator.validate({"count": 2**63})


@pytest.mark.parametrize(
    "exc,status,code",
    [
        (sqlalchemy.exc.DataError("stmt", {}, Exception("integer out of range")), 400, 200301),
        (OverflowError("Python int too large to convert to SQLite INTEGER"), 400, 200301),
        (sqlalchemy.exc.OperationalError("stmt", {}, Exception("connection refused")), 503, 200503),
        (sqlalchemy.exc.InterfaceError("stmt", {}, Exception("connection already closed")), 503, 200503),
        (RuntimeError("a bug"), 500, 200500),
    ],
)
def test_crashes_are_mapped_in_one_place(exc, status, code):
    response = asyncio.run(on_crash(None, exc))
    assert response.status_code == status and json.loads(response.body)["code"] == code


def test_header_limit_is_read_from_the_environment(monkeypatch, tmp_path):
    from modhub.settings import from_env

    monkeypatch.setenv("MODHUB_DATA_DIR", str(tmp_path))
    assert from_env().max_header_bytes == 32 * 1024
    monkeypatch.setenv("MODHUB_MAX_HEADER_BYTES", "8192")
    assert from_env().max_header_bytes == 8192
