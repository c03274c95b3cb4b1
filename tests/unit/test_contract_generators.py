"""Contract gate: openapi-python-client generates a typed client from the served document.

Runs with no configuration file and fails on any generator warning (a dropped schema or response
is reported as one, an unknown media type too), on a skipped post hook, and on a built operation
whose 200 answer, or the envelope's `data` in it, comes out untyped (`Any`).
"""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from modhub.app import handler_function
from modhub.contract import Contract
from tests.support import built_once

GENERATOR = Path(sys.executable).with_name("openapi-python-client")
METHODS = ("get", "post", "put", "patch", "delete")


def _generate(work: Path) -> None:
    """Generate as an outside developer would: the served JSON, no configuration at all (the
    default post hooks run ruff, found beside the generator as in any environment holding both)."""
    (work / "openapi.json").write_bytes(Contract.load().json_bytes)
    path = os.pathsep.join([str(GENERATOR.parent), os.environ.get("PATH", "")])
    run = subprocess.run(
        [str(GENERATOR), "generate", "--path", "openapi.json", "--meta", "none", "--output-path", "out"],
        cwd=work,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "PATH": path},
    )
    (work / "run.json").write_text(
        json.dumps(
            {"args": run.args, "returncode": run.returncode, "stdout": run.stdout, "stderr": run.stderr}
        )
    )


# One generation per run, shared by the xdist workers (tests.support.built_once): 10 to 30 s of
# CPU each time, formerly paid by every worker that ran one of these tests.
@pytest.fixture(scope="session")
def generated(tmp_path_factory):
    """The client generated from the served JSON, and the generator's output."""
    if not GENERATOR.exists():
        pytest.skip("openapi-python-client is not installed (pip install -e '.[test]')")
    work = built_once(tmp_path_factory, "python-client", _generate)
    return work / "out", subprocess.CompletedProcess(**json.loads((work / "run.json").read_text()))


def test_generator_reports_no_warning_and_drops_nothing(generated):
    _, run = generated
    output = run.stdout + run.stderr
    assert run.returncode == 0, output
    assert not re.search(r"warning|error|unable to process|removal of|skipping|not in PATH", output, re.I), (
        output
    )


def _snake(name: str) -> str:
    from openapi_python_client.strings import snake_case

    return snake_case(name)


def _built_json_reads():
    document = Contract.load().document
    for item in document["paths"].values():
        for method, op in item.items():
            ok = op.get("responses", {}).get("200", {}) if method in METHODS else {}
            if "application/json" in ok.get("content", {}) and handler_function(op["x-handler"]):
                yield op["operationId"]


@pytest.mark.parametrize("operation_id", list(_built_json_reads()))
def test_built_operation_has_a_typed_200(generated, operation_id):
    out, _ = generated
    module = next(out.glob(f"api/*/{_snake(operation_id)}.py")).read_text()
    answer = re.search(r"def _parse_response\(.*?\) -> (.*?):\n", module, re.S).group(1)
    typed = {t.strip() for t in answer.split("|")} - {"Any", "None", "ResponseEnvelope"}
    assert "response.status_code == 200:" in module and typed, answer  # Any: a 304 (no body)
    envelope = [t for t in typed if t.endswith("Response200")]
    for name in envelope:  # the envelope around this operation's data: `data` keeps its type
        model = (out / "models" / f"{_snake(name)}.py").read_text()
        data = re.search(r"^    data: (.*)$", model, re.M)  # none: not an envelope (the contract)
        assert data is None or "Any" not in data.group(1), (operation_id, data.group(1))
