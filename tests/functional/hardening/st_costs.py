"""The measured cost of each operation in the live schemathesis run, for balancing its shards.

Refresh st_costs.json after the contract changed a lot (only the shards' balance depends on it):

    MODHUB_ST_JUNIT_DIR=/tmp/junit .venv/bin/pytest tests/functional/hardening/test_live_schemathesis.py
    .venv/bin/python -m tests.functional.hardening.st_costs /tmp/junit
"""

from __future__ import annotations

import json
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

FILE = Path(__file__).with_name("st_costs.json")
NOTE = (
    "seconds per operation of the examples, coverage and fuzzing phases, from one run's junit "
    "reports (tests/functional/hardening/st_costs.py); only the shards' balance depends on them"
)


def load() -> dict[str, float]:
    """operationId -> seconds."""
    return {k: v for k, v in json.loads(FILE.read_text()).items() if k != "_"}


def balanced(operations: list[str], shards: int, costs: dict[str, float]) -> list[list[str]]:
    """The operations in `shards` groups of about equal cost: the costliest first, each to the
    lightest group so far (an operation not measured yet counts as the median)."""
    known = sorted(costs.values())
    default = known[len(known) // 2] if known else 1.0
    groups: list[list[str]] = [[] for _ in range(shards)]
    loads = [0.0] * shards
    for op_id in sorted(operations, key=lambda o: (-costs.get(o, default), o)):
        lightest = loads.index(min(loads))
        groups[lightest].append(op_id)
        loads[lightest] += costs.get(op_id, default)
    return groups


def main(junit_dir: str) -> None:
    from modhub.contract import Contract

    document = json.loads(Contract.load().json_bytes)
    ids = {
        f"{method.upper()} {path}": op["operationId"]
        for path, item in document["paths"].items()
        for method, op in item.items()
        if isinstance(op, dict) and "operationId" in op
    }
    costs = {}
    for report in Path(junit_dir).glob("operations-*.xml"):
        for case in ET.parse(report).getroot().iter("testcase"):
            if case.get("name") in ids:
                costs[ids[case.get("name")]] = round(float(case.get("time") or 0), 1)
    FILE.write_text(json.dumps({"_": NOTE, **dict(sorted(costs.items()))}, indent=1) + "\n")
    print(f"{len(costs)} operations, {sum(costs.values()):.0f} s in all")


if __name__ == "__main__":
    main(sys.argv[1])
