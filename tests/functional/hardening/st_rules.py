"""The reviewed rules and the signer of the live schemathesis run, without any hook. The test
imports this module; st_hooks.py, loaded by the `st` CLI only, registers the hooks that use it
(importing a module that declares `@schemathesis.hook` registers its hooks for every
schemathesis test of the same process).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import threading
import time
from urllib.parse import urlsplit

import requests

API_KEY = os.environ.get("MODHUB_ST_API_KEY", "")
SECRET = os.environ.get("MODHUB_ST_SECRET", "")
USER_ID = os.environ.get("MODHUB_ST_USER_ID", "")
TOKEN = os.environ.get("MODHUB_ST_TOKEN", "")
MAX_OFFSET = 10_000  # models/catalog/queries.py MAX_OFFSET, documented with 200304
NO_NUL = "^[^\u0000]*$"
INT64 = (-(2**63), 2**63 - 1)

_lock = threading.Lock()
_last_ms = [0]


def next_timestamp() -> str:
    """Milliseconds now, strictly increasing across calls (one per signed request)."""
    with _lock:
        _last_ms[0] = max(int(time.time() * 1000), _last_ms[0] + 1)
        return str(_last_ms[0])


def signature(method: str, path: str, timestamp: str, secret: str | None = None) -> str:
    """The contract's signature: base64 HMAC-SHA256 of METHOD\\nPATH\\nTIMESTAMP."""
    text = f"{method.upper()}\n{path}\n{timestamp}".encode()
    key = (secret or SECRET).encode()
    return base64.b64encode(hmac.new(key, text, hashlib.sha256).digest()).decode()


def _sent_path(case, kwargs) -> str:
    base = kwargs.get("base_url") or case.operation.base_url or ""
    prepared = requests.Request(case.method.upper(), base.rstrip("/") + case.formatted_path).prepare()
    return urlsplit(prepared.url).path


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _forbid_nul(node) -> None:
    if isinstance(node, dict):
        if (
            node.get("type") == "string"
            and "pattern" not in node
            and "enum" not in node
            and "format" not in node
        ):
            node["pattern"] = NO_NUL
        if node.get("type") == "integer" and node.get("format") != "int32":
            node.setdefault("minimum", INT64[0])
            node.setdefault("maximum", INT64[1])
        for value in node.values():
            _forbid_nul(value)
    elif isinstance(node, list):
        for value in node:
            _forbid_nul(value)


def _refs(node, found: set) -> None:
    if isinstance(node, dict):
        ref = node.get("$ref", "")
        if isinstance(ref, str) and ref.startswith("#/components/schemas/"):
            found.add(ref.rsplit("/", 1)[1])
        for value in node.values():
            _refs(value, found)
    elif isinstance(node, list):
        for value in node:
            _refs(value, found)


def apply_rules(raw_schema: dict) -> None:
    """The NUL and int64 rules on request strings and integers (parameters and request bodies,
    with every schema they reference)."""
    components = raw_schema.get("components", {})
    schemas = components.get("schemas", {})
    roots: list = [components.get("parameters", {}), components.get("requestBodies", {})]
    for item in raw_schema.get("paths", {}).values():
        for op in item.values():
            if isinstance(op, dict):
                roots += [op.get("parameters", []), op.get("requestBody", {})]
    pending: set = set()
    for root in roots:
        _refs(root, pending)
        _forbid_nul(root)
    done: set = set()
    while pending:
        name = pending.pop()
        done.add(name)
        found: set = set()
        _refs(schemas.get(name, {}), found)
        _forbid_nul(schemas.get(name, {}))
        pending |= found - done
