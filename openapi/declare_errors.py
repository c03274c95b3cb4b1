"""Write each operation's 4xx responses, with the error codes it can answer, into openapi.yaml.

    python openapi/declare_errors.py [--observed FILE ...] [--check]

An operation's codes are the union of:
  - the platform's codes for its access class (A anonymous, K signed, P proxy user, T proxy
    token) and its inputs (parameters, JSON body, paging): the gateway, the edge and the request
    validation answer them before any handler runs;
  - every catalog code its description names (the domain rules are written there first);
  - the codes recorded test runs saw it or an alias of it answer: openapi/observed/error-codes.jsonl,
    into which --observed folds new recordings (JSON lines {"operationId", "code"} written by
    the declared-errors check when MODHUB_RECORD_ERROR_CODES is set).
They are grouped by HTTP status into `'4xx'` responses placed before `default`, each with a
description naming the codes and `x-modhub-codes` (the list the declared-errors check of the
test suite enforces: an operation answering a 4xx code it does not declare fails the test that
made it). Lines this script wrote are replaced on every run, so it is safe to run again after
editing descriptions; `--check` exits 1 when the file would change.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import textwrap
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from modhub.core.errors import BY_CODE  # noqa: E402
from modhub.gateway import Access, access_of  # noqa: E402

SPEC = ROOT / "openapi" / "openapi.yaml"
OBSERVED = ROOT / "openapi" / "observed" / "error-codes.jsonl"  # kept: what recorded runs saw
METHODS = ("get", "post", "put", "patch", "delete")
TITLES = {
    400: "Invalid request",
    401: "Not authenticated",
    403: "Not permitted",
    404: "Not found",
    409: "Conflict",
    413: "Body too large",
    415: "Unsupported media type",
    429: "Too many requests",
    431: "Request headers too large",
}
EXTRA_HEADERS = {429: "Retry-After", 405: "Allow"}
EDGE = {200308}  # oversized request headers: any request
SIGNED = {200307, 200201, 200202, 200203, 200204, 200206, 200207, 200208, 200103, 200101, 200102}
PROXY_USER = {200205, 200209, 200215, 200211, 200212, 200213}  # a token sent on P is checked too
PROXY_TOKEN = {200205, 200209, 200210, 200211, 200212, 200213, 200214, 200215}
WRITE = {200216}  # a signed write is accepted once
INPUT = {200301}  # schema validation of parameters and body
BODY = {200302, 200303, 200305}
PAGED = {200304}
GENERATED = re.compile(  # a 4xx response line: a one-line $ref, or a key and its indented block
    r"^ {8}'4\d\d':(?: \{\$ref: '#/components/responses/\w+'\}\n|\n(?: {10}.*\n)*?(?= {8}\S))", re.M
)
CODE_IN_TEXT = re.compile(r"\b(200\d{3})\b")


def access_codes(operation: dict) -> set[int]:
    """The platform's codes for the operation's access class and inputs."""
    codes = set(EDGE)
    access = access_of(operation)
    if access is not Access.ANONYMOUS:
        codes |= SIGNED
    if access is Access.TOKEN:
        codes |= PROXY_TOKEN | WRITE
    elif access is Access.PROXY_USER:
        codes |= PROXY_USER
    parameters = [
        p.get("$ref", "").rsplit("/", 1)[-1] if "$ref" in p else p.get("name", "")
        for p in operation.get("parameters", [])
    ]
    if parameters or "requestBody" in operation:  # If-None-Match too: a NUL byte in it is 200301
        codes |= INPUT
    if "requestBody" in operation:
        codes |= BODY
    if "PageNum" in parameters:
        codes |= PAGED
    return codes


def described_codes(operation: dict) -> set[int]:
    """Catalog codes the operation's description names (4xx ones only)."""
    text = operation.get("description", "")
    return {
        int(c)
        for c in CODE_IN_TEXT.findall(text)
        if int(c) in BY_CODE and 400 <= BY_CODE[int(c)].status < 500
    }


def observed_codes_of(rows: set[str]) -> dict[str, set[int]]:
    """operationId -> codes seen in recorded test runs (JSON lines)."""
    seen: dict[str, set[int]] = {}
    for line in rows:
        row = json.loads(line)
        seen.setdefault(row["operationId"], set()).add(int(row["code"]))
    return seen


def shared_refusals(spec: dict) -> dict[frozenset, str]:
    """Code set -> name of the components/responses entry that lists exactly those codes."""
    return {
        frozenset(response["x-modhub-codes"]): name
        for name, response in spec["components"]["responses"].items()
        if "x-modhub-codes" in response
    }


def block(codes: set[int], shared: dict[frozenset, str]) -> str:
    """The YAML lines of an operation's 4xx responses: a shared refusal where one lists exactly
    the codes of that status, else the codes written in place."""
    by_status: dict[int, list[int]] = {}
    for code in sorted(codes):
        entry = BY_CODE[code]
        if 400 <= entry.status < 500:
            by_status.setdefault(entry.status, []).append(code)
    lines = []
    for status, listed in sorted(by_status.items()):
        name = shared.get(frozenset(listed))
        if name:
            lines.append(f"        '{status}': {{$ref: '#/components/responses/{name}'}}")
            continue
        names = ", ".join(f"{c} {BY_CODE[c].name}" for c in listed)
        text = f"{TITLES.get(status, 'Refused')}; code is one of: {names}."
        lines.append(f"        '{status}':")
        lines.append("          description: >-")
        lines += ["            " + part for part in textwrap.wrap(text, 86)]
        if status in EXTRA_HEADERS:  # what the refusal carries beyond the common set
            lines.append("          headers:")
            lines.append("            <<: *plain")
            name = EXTRA_HEADERS[status]
            lines.append(f"            {name}: {{$ref: '#/components/headers/{name}'}}")
        else:
            lines.append("          headers: *plain")
        lines.append("          content: *error")
        lines.append(f"          x-modhub-codes: [{', '.join(map(str, listed))}]")
    return "".join(line + "\n" for line in lines)


def generated(lines: str, shared: dict[frozenset, str]) -> bool:
    """Whether a 4xx response was written by this script (a shared refusal or listed codes)."""
    return "x-modhub-codes" in lines or any(f"/responses/{n}'" in lines for n in shared.values())


def rewrite(text: str, declared: dict[str, set[int]], shared: dict[frozenset, str]) -> str:
    """The YAML text with each operation's generated 4xx block replaced."""
    out, position = [], 0
    for match in re.finditer(r"^      operationId: (\S+)\n", text, re.M):
        operation_id = match.group(1)
        responses = text.index("\n      responses:\n", match.end()) + 1
        default = text.index("        default: {$ref: '#/components/responses/Error'}\n", responses)
        body = text[responses:default]
        kept = GENERATED.sub(lambda m: "" if generated(m.group(0), shared) else m.group(0), body)
        out.append(text[position:responses])
        out.append(kept)
        out.append(block(declared.get(operation_id, set()), shared))
        position = default
    out.append(text[position:])
    return "".join(out)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--observed", type=Path, nargs="*", default=[])
    parser.add_argument("--check", action="store_true", help="exit 1 if the file would change")
    args = parser.parse_args()
    text = SPEC.read_text()
    spec = yaml.safe_load(text)
    rows = set(OBSERVED.read_text().splitlines()) if OBSERVED.exists() else set()
    for path in args.observed:  # fold a new recording into the kept observations
        rows |= {line for line in path.read_text().splitlines() if line.strip()}
    if args.observed and not args.check:
        OBSERVED.write_text("".join(line + "\n" for line in sorted(rows)))
    seen = observed_codes_of(rows)
    operations = [item[m] for item in spec["paths"].values() for m in METHODS if m in item]
    by_handler: dict[str, set[int]] = {}  # aliases share a handler: what one answered, all can
    for operation in operations:
        by_handler.setdefault(operation.get("x-handler"), set()).update(
            seen.get(operation["operationId"], set())
        )
    declared = {
        operation["operationId"]: (
            access_codes(operation) | described_codes(operation) | by_handler[operation.get("x-handler")]
        )
        for operation in operations
    }
    new = rewrite(text, declared, shared_refusals(spec))
    if args.check:
        if new == text:
            return 0
        print(
            f"{SPEC.relative_to(ROOT)}: the declared 4xx responses are not current: "
            "run python openapi/declare_errors.py",
            file=sys.stderr,
        )
        return 1
    SPEC.write_text(new)
    print(f"declared 4xx codes of {len(declared)} operations in {SPEC.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
