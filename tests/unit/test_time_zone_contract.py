"""The platform time zone is published in the contract (info.x-modhub-time-zone and the common
X-Modhub-Time-Zone response header), every time field names it, and every time a client sends
has exactly one documented form (a pattern)."""

from __future__ import annotations

import re

from modhub.contract import Contract
from modhub.settings import Settings

DOC = Contract.load().document  # the parse kept beside the YAML (modhub.contract)
LOCAL_TIME = re.compile(r"^\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d$")
TIME_NAME = re.compile(r"(Time|At|Since)$|^since$")
METHODS = ("get", "post", "put", "patch", "delete")


def _properties(schema, seen=()):
    """(name, property schema) of every property reachable in a schema (refs resolved)."""
    if not isinstance(schema, dict) or id(schema) in seen:
        return
    seen = (*seen, id(schema))
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        yield from _properties(DOC["components"]["schemas"][name], seen)
        return
    for name, prop in (schema.get("properties") or {}).items():
        yield name, prop
        yield from _properties(prop, seen)
    for key in ("allOf", "oneOf", "anyOf"):
        for part in schema.get(key) or []:
            yield from _properties(part, seen)
    yield from _properties(schema.get("items"), seen)


def _is_time(name: str, prop: dict) -> bool:
    example = prop.get("example")
    if prop.get("type") == "boolean":
        return False
    return bool(TIME_NAME.search(name)) or (isinstance(example, str) and bool(LOCAL_TIME.match(example)))


def _time_fields():
    for schema_name, schema in DOC["components"]["schemas"].items():
        for name, prop in _properties(schema):
            if _is_time(name, prop):
                yield f"{schema_name}.{name}", prop


def test_info_publishes_the_default_time_zone():
    zone = Settings(database_url="sqlite://").time_zone
    assert DOC["info"]["x-modhub-time-zone"] == zone
    assert "x-modhub-time-zone" in DOC["info"]["description"]
    assert "X-Modhub-Time-Zone" in DOC["info"]["description"]


def test_every_declared_answer_carries_the_time_zone_header():
    assert "X-Modhub-Time-Zone" in DOC["components"]["headers"]
    for path, item in DOC["paths"].items():
        for method, op in item.items():
            if method not in METHODS:
                continue
            for status, response in op["responses"].items():
                if "$ref" in response:
                    response = DOC["components"]["responses"][response["$ref"].rsplit("/", 1)[-1]]
                assert "X-Modhub-Time-Zone" in (response.get("headers") or {}), (method, path, status)


def test_every_time_field_names_the_zone_or_its_epoch():
    fields = dict(_time_fields())
    assert len(fields) > 30
    for where, prop in fields.items():
        text = prop.get("description") or ""
        if prop.get("type") == "integer":
            assert "epoch" in text and "UTC" in text, where
        else:
            assert "yyyy-MM-dd HH:mm:ss in the platform time zone" in text, where


def test_every_time_a_client_sends_has_one_pattern():
    sent = []
    for path, item in DOC["paths"].items():
        for method, op in item.items():
            if method not in METHODS:
                continue
            for p in op.get("parameters") or []:
                if "$ref" in p:
                    p = DOC["components"]["parameters"][p["$ref"].rsplit("/", 1)[-1]]
                if _is_time(p["name"], p["schema"]) and p["schema"].get("type") == "string":
                    sent.append((f"{method} {path} {p['name']}", p["schema"], p.get("description", "")))
            body = (op.get("requestBody") or {}).get("content", {}).get("application/json", {})
            for name, prop in _properties(body.get("schema")):
                if _is_time(name, prop) and prop.get("type") == "string":
                    sent.append((f"{method} {path} {name}", prop, prop.get("description", "")))
    assert len(sent) >= 5
    for where, schema, text in sent:
        pattern = schema.get("pattern")
        assert pattern in (
            r"^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$",
            r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$",
        ), where
        assert "platform time zone" in text, where
