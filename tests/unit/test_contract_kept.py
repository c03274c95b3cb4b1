"""The contract's parse kept beside the YAML (modhub.contract): a process that finds the JSON of
the same text reads it instead of parsing; a changed text is parsed again and replaces it; nothing
is kept where bytecode would not be, where the folder cannot be written, or when the JSON would not
give the document back."""

from __future__ import annotations

import json
import shutil
import sys

import pytest
import yaml

from modhub import contract
from modhub.contract import SAFE_LOADER, SPEC_PATH, Contract, kept_path


@pytest.fixture
def spec(tmp_path, monkeypatch):
    """A copy of the contract in a folder of its own, and no parse of it in this process yet."""
    path = tmp_path / "openapi.yaml"
    shutil.copyfile(SPEC_PATH, path)
    monkeypatch.setattr(contract, "_PARSED", {})
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    return path


def _fresh_process(monkeypatch):
    """What a new process has: no parse in memory."""
    monkeypatch.setattr(contract, "_PARSED", {})


def test_the_first_load_keeps_the_json_and_the_next_process_reads_it(spec, monkeypatch):
    first = Contract.load(spec)
    kept = kept_path(spec, spec.read_bytes())
    assert kept.parent == spec.parent / "__pycache__"
    assert kept.read_bytes() == first.json_bytes
    assert first.document == yaml.load(spec.read_bytes(), Loader=SAFE_LOADER)

    _fresh_process(monkeypatch)
    monkeypatch.setattr(contract.yaml, "load", lambda *a, **k: pytest.fail("parsed again"))
    second = Contract.load(spec)
    assert second.document == first.document
    assert second.json_bytes == first.json_bytes
    assert second.yaml_bytes == spec.read_bytes()


def test_a_changed_text_is_parsed_again_and_replaces_the_kept_json(spec, monkeypatch):
    Contract.load(spec)
    old = kept_path(spec, spec.read_bytes())
    text = spec.read_text().replace("title: ", "title: Changed ", 1)
    spec.write_text(text)
    _fresh_process(monkeypatch)
    changed = Contract.load(spec)
    assert changed.document["info"]["title"].startswith("Changed ")
    assert not old.exists()
    assert sorted(p.name for p in spec.parent.joinpath("__pycache__").iterdir()) == [
        kept_path(spec, spec.read_bytes()).name
    ]


def test_an_unreadable_kept_json_is_parsed_again_and_rewritten(spec, monkeypatch):
    first = Contract.load(spec)
    kept = kept_path(spec, spec.read_bytes())
    kept.write_text('{"cut": ')
    _fresh_process(monkeypatch)
    assert Contract.load(spec).document == first.document
    assert kept.read_bytes() == first.json_bytes


def test_nothing_is_kept_without_bytecode_or_a_writable_folder(spec, monkeypatch):
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    assert Contract.load(spec).document["openapi"].startswith("3.0")
    assert not (spec.parent / "__pycache__").exists()

    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    _fresh_process(monkeypatch)
    (spec.parent / "__pycache__").write_text("a file where the folder would be")
    assert Contract.load(spec).document["openapi"].startswith("3.0")  # parsed, nothing kept


def test_a_document_json_would_change_is_not_kept(tmp_path, monkeypatch):
    """An unquoted status code is an integer key in YAML, a string in JSON: not kept."""
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    monkeypatch.setattr(contract, "_PARSED", {})
    path = tmp_path / "openapi.yaml"
    path.write_text(
        "openapi: 3.0.3\npaths:\n  /a:\n    get:\n      responses:\n        200:\n          description: ok\n"
    )
    loaded = Contract.load(path)
    assert 200 in loaded.document["paths"]["/a"]["get"]["responses"]
    assert json.loads(loaded.json_bytes)["paths"]["/a"]["get"]["responses"] == {"200": {"description": "ok"}}
    assert not kept_path(path, path.read_bytes()).exists()
