"""Contract gate: openapi-typescript generates typed TypeScript from the served document.

The npm package is installed by .ci/run into .ci/node (or point MODHUB_NODE_BIN at a folder
holding `openapi-typescript`); without it the gate is skipped, except under CI where it fails.
Fails on a generator warning, on an object schema that comes out as `Record<string, never>` (an
object with no declared properties and no additionalProperties: a client could put nothing in
it), and on a built operation whose 200 answer, or the envelope's `data` in it, is `unknown`.
"""

import json
import os
import re
import subprocess
from pathlib import Path

import pytest

from modhub.app import handler_function
from modhub.contract import Contract
from tests.support import built_once

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(os.environ.get("MODHUB_NODE_BIN", ROOT / ".ci" / "node" / "node_modules" / ".bin"))
METHODS = ("get", "post", "put", "patch", "delete")


def _generate(tool: Path, work: Path) -> None:
    (work / "openapi.json").write_bytes(Contract.load().json_bytes)
    run = subprocess.run(
        [str(tool), "openapi.json", "-o", "schema.d.ts"],
        cwd=work,
        capture_output=True,
        text=True,
        timeout=300,
    )
    (work / "run.json").write_text(
        json.dumps({"returncode": run.returncode, "output": run.stdout + run.stderr})
    )


# One generation per run, shared by the xdist workers (tests.support.built_once): 10 to 30 s of
# CPU each time, formerly paid by every worker that ran one of these tests.
@pytest.fixture(scope="session")
def generated(tmp_path_factory):
    """The TypeScript generated from the served JSON, and the generator's output."""
    tool = BIN / "openapi-typescript"
    if not tool.exists():
        if os.environ.get("CI"):
            pytest.fail(f"openapi-typescript is missing at {tool} (.ci/run installs it)")
        pytest.skip("openapi-typescript is not installed (npm install --prefix .ci/node openapi-typescript)")
    work = built_once(tmp_path_factory, "typescript", lambda folder: _generate(tool, folder))
    run = json.loads((work / "run.json").read_text())
    assert run["returncode"] == 0, run["output"]
    return (work / "schema.d.ts").read_text(), run["output"]


def test_generator_reports_no_warning(generated):
    _, output = generated
    assert not re.search(r"warn|error", output, re.I), output


def test_no_object_comes_out_empty(generated):
    source, _ = generated
    empty = [
        line.strip()
        for line in source.splitlines()
        if "Record<string, never>" in line and not line.startswith("export type ")
    ]
    assert not empty, empty


def _operation_block(source: str, operation_id: str) -> str:
    operations = source[source.index("export interface operations {") :]
    start = re.search(rf"^    {re.escape(operation_id)}: {{$", operations, re.M)
    assert start, operation_id
    end = operations.index("\n    };", start.end())
    return operations[start.end() : end]


def _built_json_reads():
    document = Contract.load().document
    for item in document["paths"].values():
        for method, op in item.items():
            ok = op.get("responses", {}).get("200", {}) if method in METHODS else {}
            if "application/json" in ok.get("content", {}) and handler_function(op["x-handler"]):
                yield op["operationId"]


@pytest.mark.parametrize("operation_id", list(_built_json_reads()))
def test_built_operation_has_a_typed_200(generated, operation_id):
    source, _ = generated
    block = _operation_block(source, operation_id)
    answer = re.search(r"^            200: \{\n(.*?)^            \};", block, re.M | re.S)
    assert answer, operation_id
    content = re.search(r'"application/json": (.*?);\n {16}\};', answer.group(1), re.S)
    assert content, (operation_id, answer.group(1))
    typed = content.group(1)
    assert typed.strip() != "unknown", operation_id
    if "ResponseEnvelope" in typed:  # the envelope around this operation's data keeps its type
        assert re.search(r"data\??: (?!unknown)", typed), (operation_id, typed)
