"""Write a request and a success example into each operation of openapi.yaml, from a test run.

    MODHUB_RECORD_EXAMPLES=/tmp/ex pytest        # the suite records its successful exchanges
    python openapi/write_examples.py /tmp/ex/*.jsonl [--check]

For every operation the richest recorded 200 answer (and the JSON body that produced it) becomes
the `example` of its `200` application/json content (and of its request body): real values,
answered by the server and validated against the contract by the suite, trimmed for reading
(lists to one item, long texts cut, at most about 70 lines). Examples this script wrote carry a
`# recorded` comment and are replaced on every run; hand-written ones are left alone. The
linters (spectral and Redocly) check every example against its schema.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
SPEC = ROOT / "openapi" / "openapi.yaml"
MARK = "# recorded by the test suite (openapi/write_examples.py)"
TRACE = "9f1c2b7e4a5d4c3b8e6f0a1b2c3d4e5f"
RECORDED = re.compile(rf"^( +)example: {re.escape(MARK)}\n(?:\1  .*\n)*", re.M)
FLOW = re.compile(r"^( +)application/json: \{schema: (.*)\}$")


def trimmed(value, depth: int = 0):
    """The value cut for reading: lists to one item, strings to 160 characters."""
    if isinstance(value, list):
        return [trimmed(v, depth + 1) for v in value[:1]]
    if isinstance(value, dict):
        return {k: trimmed(v, depth + 1) for k, v in value.items()}
    if isinstance(value, str) and len(value) > 160:
        return value[:157] + "..."
    return value


MAX_LINES = 70  # an example longer than this (trimmed) is passed over for a shorter one
SKIPPED = {"getOpenApiJson"}  # the document itself: its example would be the whole file


def richness(row: dict) -> int:
    """How much an answer shows within MAX_LINES: its trimmed size, null data worth nothing,
    an answer too long to read worth less than any that fits."""
    data = row["response"].get("data") if isinstance(row["response"], dict) else row["response"]
    if data in (None, [], {}):
        return 0
    lines = len(dump(trimmed(row["response"]), 0).splitlines())
    return lines if lines <= MAX_LINES else 1


def best_rows(paths: list[Path]) -> dict[str, dict]:
    """operationId -> the richest recorded exchange that is short enough to read."""
    best: dict[str, dict] = {}
    for path in paths:
        for line in path.read_text().splitlines():
            row = json.loads(line)
            if row["operationId"] in SKIPPED:
                continue
            current = best.get(row["operationId"])
            if current is None or richness(row) > richness(current):
                best[row["operationId"]] = row
    return best


def dump(value, indent: int) -> str:
    """The value as block YAML, every line indented."""
    text = yaml.safe_dump(value, allow_unicode=True, sort_keys=False, default_flow_style=False, width=100)
    return "".join(" " * indent + line + "\n" for line in text.splitlines())


def with_example(lines: list[str], index: int, value) -> None:
    """Give the application/json media type at lines[index] an example (in place)."""
    line = lines[index]
    flow = FLOW.match(line.rstrip("\n"))
    indent = len(line) - len(line.lstrip())
    block = f"{' ' * (indent + 2)}example: {MARK}\n" + dump(value, indent + 4)
    if flow:
        lines[index] = (
            f"{flow.group(1)}application/json:\n{flow.group(1)}  schema: {flow.group(2)}\n"
        ) + block
        return
    last = index  # after the media type's own block (its schema), so the example comes last
    while last + 1 < len(lines) and (len(lines[last + 1]) - len(lines[last + 1].lstrip())) > indent:
        last += 1
    lines[last] = lines[last] + block


def rewrite(text: str, rows: dict[str, dict]) -> str:
    """The YAML with every recorded operation's examples written."""
    text = RECORDED.sub("", text)
    lines = text.splitlines(keepends=True)
    starts = [i for i, line in enumerate(lines) if line.startswith("      operationId: ")]
    for n, start in enumerate(starts):
        operation_id = lines[start].split(":", 1)[1].strip()
        row = rows.get(operation_id)
        if row is None:
            continue
        end = starts[n + 1] if n + 1 < len(starts) else len(lines)
        end = next((i for i in range(start, end) if re.match(r"^ {0,4}\S", lines[i])), end)
        region = range(start, end)
        if row.get("request") is not None:
            body = next((i for i in region if lines[i].startswith("      requestBody:")), None)
            media = body is not None and next(
                (i for i in range(body, end) if lines[i].startswith("          application/json:")), None
            )
            if media:
                with_example(lines, media, trimmed(row["request"]))
        ok = next((i for i in region if lines[i].startswith("        '200':")), None)
        if ok is not None:
            media = next(
                (
                    i
                    for i in range(ok + 1, end)
                    if re.match(r"^ {8}\S", lines[i]) or lines[i].startswith("            application/json:")
                ),
                None,
            )
            if media is not None and lines[media].startswith("            application/json:"):
                response = dict(trimmed(row["response"]))
                if "traceId" in response:
                    response["traceId"] = TRACE
                with_example(lines, media, response)
    return "".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("recorded", type=Path, nargs="+")
    parser.add_argument("--check", action="store_true", help="exit 1 if the file would change")
    args = parser.parse_args()
    text = SPEC.read_text()
    new = rewrite(text, best_rows(args.recorded))
    if args.check:
        return 0 if new == text else 1
    SPEC.write_text(new)
    print(f"examples written into {SPEC.relative_to(ROOT)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
