"""The InstallScript component: its examples fit, its path and @N rules hold, and every script
the demo seed writes (what install-info signs on a demo catalogue) is one."""

from __future__ import annotations

import json
import random

import pytest
from openapi_schema_validator import OAS30Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT4

from models.downloads.script import script_checker
from modhub.contract import Contract
from modhub.seed_rows import _install_script

DOC = Contract.load().document
SCHEMAS = DOC["components"]["schemas"]
REGISTRY = Registry().with_resource("", Resource(contents=DOC, specification=DRAFT4))
ROOT = OAS30Validator(DOC, registry=REGISTRY)
IS_SCRIPT = script_checker(DOC)
STEPS = [
    "InstallScriptCopyStep",
    "InstallScriptExtractStep",
    "InstallScriptDeleteStep",
    "InstallScriptMkdirStep",
]


def _valid(name: str, value) -> bool:
    return ROOT.evolve(schema={"$ref": f"#/components/schemas/{name}"}).is_valid(value)


def test_every_action_has_an_example_that_fits_and_the_script_example_uses_them_all():
    actions = set()
    for name in STEPS:
        example = SCHEMAS[name]["example"]
        assert _valid(name, example) and _valid("InstallScriptStep", example), name
        actions.add(example["action"])
    script = SCHEMAS["InstallScript"]["example"]
    assert _valid("InstallScript", script) and IS_SCRIPT(script)
    assert {step["action"] for step in script["steps"]} == actions == {"copy", "extract", "delete", "mkdir"}


@pytest.mark.parametrize(
    "path,ok",
    [
        ("mods/", True),
        ("config/create/settings.toml", True),
        ("资源包/材质.zip", True),
        ("a..b/c", True),
        ("/etc/passwd", False),
        ("C:/Windows", False),
        ("../outside", False),
        ("mods/../../x", False),
        ("mods/..", False),
        ("mods\\x.jar", False),
        ("mods/\nx", False),
        ("", False),
    ],
)
def test_path_rules(path, ok):
    step = {"action": "copy", "from": "@0", "to": path}
    assert _valid("InstallScriptPath", path) is ok
    assert IS_SCRIPT({"steps": [step]}) is ok  # the server's check agrees with the contract


@pytest.mark.parametrize(
    "ref,ok", [("@0", True), ("@12", True), ("@9999", True), ("@01", False), ("0", False)]
)
def test_file_placeholders(ref, ok):
    assert IS_SCRIPT({"steps": [{"action": "copy", "from": ref, "to": "mods/"}]}) is ok


@pytest.mark.parametrize(
    "script",
    [
        {"steps": [{"copy": "@0", "to": "mods/"}]},  # no action
        {"steps": [{"action": "move", "from": "@0", "to": "mods/"}]},
        {"steps": [{"action": "copy", "from": "@0"}]},
        {"steps": [{"action": "delete", "path": "mods/a.jar", "to": "x"}]},
        {"steps": [{"action": "extract", "from": "@0", "to": "a/", "stripComponents": -1}]},
        {"source": "HUMAN", "steps": []},
        {"summary": "no steps"},
    ],
)
def test_other_shapes_are_not_install_scripts(script):
    assert not _valid("InstallScript", script) and not IS_SCRIPT(script)


def test_every_script_the_demo_seed_writes_is_an_install_script():
    rng = random.Random(1)
    seen = set()
    for rtype in ("mod", "modpack", "resourcepack", "shader", "datapack", "map", "plugin"):
        for env in ("REQUIRED", "OPTIONAL", "NO_NEED", "UNKNOWN"):
            text = _install_script(f"Demo {rng.random()}", rtype, env)
            if text is None:
                continue
            script = json.loads(text)
            assert _valid("InstallScript", script) and IS_SCRIPT(script), text
            seen.add(rtype)
    assert seen
