"""The contract's promise about refusals, checked: a 4xx answer carries a code its operation lists.

Each operation's 4xx responses list the codes it can answer (`x-modhub-codes`, written by
openapi/declare_errors.py). With response validation on (`validate_responses`, the tests' mode)
this outermost middleware reads the code of every 4xx answer of a routed operation and raises
when the operation does not declare it, so the test that provoked it fails. With
MODHUB_RECORD_ERROR_CODES set to a folder it records instead ({"operationId", "code"} lines, one
file per process), which `openapi/declare_errors.py --observed` folds into the contract.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

ROUTING = "connexion_routing"


def declared_codes(document: dict) -> dict[str, frozenset[int]]:
    """operationId -> the 4xx codes its responses list (shared refusals resolved)."""
    shared = document.get("components", {}).get("responses", {})
    out: dict[str, frozenset[int]] = {}
    for item in document.get("paths", {}).values():
        for operation in item.values():
            if not isinstance(operation, dict) or "operationId" not in operation:
                continue
            codes: set[int] = set()
            for status, response in operation.get("responses", {}).items():
                if not str(status).startswith("4"):
                    continue
                if "$ref" in response:
                    response = shared.get(response["$ref"].rsplit("/", 1)[-1], {})
                codes.update(response.get("x-modhub-codes", []))
            out[operation["operationId"]] = frozenset(codes)
    return out


class UndeclaredErrorCode(AssertionError):
    """An operation answered a 4xx code its contract does not list."""


class DeclaredErrorsMiddleware:
    """Checks (or records) the code of every 4xx answer against the operation's declared codes."""

    def __init__(self, app, *, declared: dict[str, frozenset[int]], record_dir: str | None = None):
        self.app = app
        self.declared = declared
        self.record = (Path(record_dir) / f"codes-{os.getpid()}.jsonl") if record_dir else None

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        answer: dict[str, Any] = {"status": 0, "body": []}

        async def capture(message):
            if message["type"] == "http.response.start":
                answer["status"] = message["status"]
            elif message["type"] == "http.response.body" and 400 <= answer["status"] < 500:
                answer["body"].append(message.get("body", b""))
            await send(message)

        await self.app(scope, receive, capture)
        if 400 <= answer["status"] < 500:
            self._verify(scope, b"".join(answer["body"]))

    def _verify(self, scope, body: bytes) -> None:
        operation_id = scope.get("extensions", {}).get(ROUTING, {}).get("operation_id")
        if operation_id not in self.declared:
            return
        try:
            code = json.loads(body)["code"]
        except (ValueError, KeyError, TypeError):
            return  # not an envelope (a 416 of a download, say): nothing to check
        if code in self.declared[operation_id]:
            return
        if self.record is not None:
            with self.record.open("a") as out:
                out.write(json.dumps({"operationId": operation_id, "code": code}) + "\n")
            return
        raise UndeclaredErrorCode(
            f"{operation_id} answered code {code}, which its 4xx responses in openapi.yaml do "
            f"not list: name it in the operation's description and run "
            f"`python openapi/declare_errors.py`"
        )
