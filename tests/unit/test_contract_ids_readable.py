"""Every integer id a write (or any request) accepts is readable from a documented read.

The rule, walked over the contract: take every request field whose name ends in `Id` or `Ids`
(a path or query parameter, or a property at any depth of a JSON request body). It is readable when

  (a) some response schema (reachable from an operation's responses) has a property of that
      name (for `...Ids`, of the singular `...Id`), or
  (b) the field says where its values come from with `x-modhub-id-of: <Schema>.<property>`, and
      that schema is reachable from a response and has that property (e.g. resourceTypeId is
      `FilterOptionVO.id`), or
  (c) it is in CALLER_OWN below: an id the caller makes up itself, with the reason.
"""

from __future__ import annotations

import re

import pytest

from modhub.contract import Contract

DOC = Contract.load().document
SCHEMAS = DOC["components"]["schemas"]
METHODS = ("get", "post", "put", "patch", "delete")
ID = re.compile(r"Ids?$")
# Ids the caller makes up, so no read can hand them out.
CALLER_OWN = {
    "tempId": "the client's own temporary key grouping files uploaded before the draft exists",
    "requestId": "the provider's own idempotency key of an activity collection",
    "externalUserId": "the application's own id of its user (user bindings)",
    "imageFileId": (
        "no operation uploads carousel images: the contract says every imageFileId is refused "
        "(200404) and imageUrl is the way; kept for the service spec's shape"
    ),
}


def _ref_name(node: dict) -> str | None:
    return node["$ref"].rsplit("/", 1)[1] if "$ref" in node else None


def _walk(node, seen: set[str], found: dict[str, list[dict]], names: set[str]) -> None:
    """Every property (name -> its schemas) under node; `names` collects the schemas passed."""
    if isinstance(node, list):
        for item in node:
            _walk(item, seen, found, names)
        return
    if not isinstance(node, dict):
        return
    ref = _ref_name(node)
    if ref is not None:
        if ref not in seen:
            seen.add(ref)
            names.add(ref)
            _walk(SCHEMAS[ref], seen, found, names)
        return
    for key in ("allOf", "oneOf", "anyOf"):
        _walk(node.get(key, []), seen, found, names)
    for name, schema in node.get("properties", {}).items():
        found.setdefault(name, []).append(schema)
        _walk(schema, seen, found, names)
    for key in ("items", "additionalProperties"):
        if isinstance(node.get(key), dict):
            _walk(node[key], seen, found, names)


def _parameter(p: dict) -> dict:
    return DOC["components"]["parameters"][_ref_name(p)] if "$ref" in p else p


def _operations():
    for path, item in DOC["paths"].items():
        for method, op in item.items():
            if method in METHODS:
                yield f"{method.upper()} {path}", op


def _response_side() -> tuple[set[str], set[str]]:
    """(property names, schema names) reachable from every operation's responses."""
    found: dict[str, list[dict]] = {}
    names: set[str] = set()
    for _, op in _operations():
        for response in op["responses"].values():
            if "$ref" in response:
                response = DOC["components"]["responses"][_ref_name(response)]
            for media in response.get("content", {}).values():
                _walk(media.get("schema", {}), set(), found, names)
    return set(found), names


def _request_ids() -> dict[str, list[tuple[str, dict]]]:
    """Id field name -> (operation, its schema or parameter object) of every request field."""
    out: dict[str, list[tuple[str, dict]]] = {}
    for where, op in _operations():
        for p in map(_parameter, op.get("parameters", [])):
            if p["in"] in ("path", "query") and ID.search(p["name"]):
                out.setdefault(p["name"], []).append((where, p))
        for media in op.get("requestBody", {}).get("content", {}).values():
            found: dict[str, list[dict]] = {}
            _walk(media.get("schema", {}), set(), found, set())
            for name, schemas in found.items():
                if ID.search(name):
                    out.setdefault(name, []).extend((where, s) for s in schemas)
    return out


RESPONSE_FIELDS, RESPONSE_SCHEMAS = _response_side()
REQUEST_IDS = _request_ids()


def test_the_walk_sees_the_write_ids_of_the_issue():
    assert {"resourceTypeId", "categoryId", "runPlatformId", "contentCopyrightId"} <= set(REQUEST_IDS)


@pytest.mark.parametrize("name", sorted(REQUEST_IDS))
def test_request_id_is_readable(name):
    if name in CALLER_OWN:
        return
    singular = name[:-1] if name.endswith("Ids") else name
    for where, field in REQUEST_IDS[name]:
        source = field.get("x-modhub-id-of")
        if source is None:
            assert singular in RESPONSE_FIELDS, f"{where}: {name} is read nowhere: add x-modhub-id-of"
            continue
        schema, prop = source.split(".")
        assert schema in RESPONSE_SCHEMAS, f"{where}: {name}: {schema} is in no response"
        assert prop in SCHEMAS[schema].get("properties", {}), f"{where}: {name}: no {source}"


def test_filter_options_and_category_nodes_carry_their_id():
    for name in ("FilterOptionVO", "CategoryNodeVO"):
        field = SCHEMAS[name]["properties"]["id"]
        assert field["x-modhub-extension"] is True and field["type"] == "integer", name
