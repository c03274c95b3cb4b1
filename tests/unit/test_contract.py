"""The contract declares every operation of the service spec, each resolving to a handler."""

import json
import re
from pathlib import Path

import pytest
from openapi_spec_validator import validate

from modhub.app import handler_function
from modhub.contract import SPEC_PATH, Contract
from modhub.core.errors import CATALOG
from modhub.gateway import Access, access_of

OPERATIONS = Path(__file__).resolve().parents[3] / "shared" / "service-operations.json"
METHODS = ("get", "post", "put", "patch", "delete")
DOC = Contract.load().document  # the parse kept beside the YAML (modhub.contract)
OPS = [(m.upper(), p, o) for p, item in DOC["paths"].items() for m, o in item.items() if m in METHODS]


def _service_operations():
    if not OPERATIONS.exists():
        pytest.skip("shared/service-operations.json is not beside the checkout")
    return json.loads(OPERATIONS.read_text())


def test_document_is_valid_openapi_3_0():
    assert DOC["openapi"].startswith("3.0")
    validate(DOC)


def test_every_service_operation_is_declared_and_nothing_else():
    want = {(o["method"], o["path"]) for o in _service_operations()}
    have = {(m, p) for m, p, o in OPS if not o.get("x-modhub-extension")}
    assert want - have == set()
    assert have - want == set()
    assert len(want) == 136


def test_extensions_are_tagged_and_outside_the_service_spec():
    extensions = [(m, p, o) for m, p, o in OPS if o.get("x-modhub-extension")]
    assert extensions
    for method, path, op in extensions:
        assert op["x-modhub-extension"] is True and op["tags"] == ["extensions"], (method, path)
    if OPERATIONS.exists():
        want = {(o["method"], o["path"]) for o in _service_operations()}
        assert not {(m, p) for m, p, _ in extensions} & want


def test_access_level_matches_the_service_spec():
    codes = {
        "K": Access.KEY,
        "P": Access.PROXY_USER,
        "T": Access.TOKEN,
        "A": Access.ANONYMOUS,
        "header X-Proxy-Access-Token": Access.TOKEN,
    }
    ops = {(m, p): o for m, p, o in OPS}
    for want in _service_operations():
        assert access_of(ops[(want["method"], want["path"])]) is codes[want["access"]], want


def test_operation_ids_are_unique_and_flags_present():
    ids = [o["operationId"] for _, _, o in OPS]
    assert len(ids) == len(set(ids))
    for method, path, op in OPS:
        assert isinstance(op.get("x-openapi-require-proxy"), bool), (method, path)
        assert isinstance(op.get("x-openapi-write-action"), bool), (method, path)
        assert "security" in op and "default" in op["responses"], (method, path)


@pytest.mark.parametrize("method,path,op", OPS, ids=[f"{m} {p}" for m, p, _ in OPS])
def test_planned_mark_agrees_with_the_handler(method, path, op):
    """Marked planned <=> its x-handler function is missing (the resolver then answers 501)."""
    marked = op.get("x-modhub-status") == "planned"
    assert op.get("x-modhub-status") in (None, "planned"), (method, path)
    assert marked is (handler_function(op["x-handler"]) is None), (method, path, op["x-handler"])
    assert marked is ("Planned: answers 501 / 200501 until built." in op["description"]), (method, path)


def test_a_broken_handler_module_is_not_taken_for_a_planned_one(tmp_path, monkeypatch):
    (tmp_path / "broken_handlers_mod.py").write_text("import no_such_module_anywhere\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert handler_function("no_such_handlers_pkg.thing") is None
    with pytest.raises(ModuleNotFoundError):
        handler_function("broken_handlers_mod.thing")


def test_error_catalog_is_documented_in_the_contract():
    rows = re.findall(r"^\|\s*(\d{6})\s*\|\s*([A-Z_]+)\s*\|\s*(\d{3})\s*\|", DOC["info"]["description"], re.M)
    documented = {(int(c), n, int(s)) for c, n, s in rows}
    assert documented == {(e.code, e.name, e.status) for e in CATALOG.values()}


def test_envelope_code_enum_is_the_catalog():
    enum = DOC["components"]["schemas"]["ResponseEnvelope"]["properties"]["code"]["enum"]
    assert enum == [0, *sorted(e.code for e in CATALOG.values())]


def test_error_catalog_is_in_the_docs():
    page = (SPEC_PATH.parents[1] / "docs" / "integrate" / "error-codes.md").read_text()
    for e in CATALOG.values():
        assert f"| {e.code} | {e.name} | {e.status} |" in page, e.name
