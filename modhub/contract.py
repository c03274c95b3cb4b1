"""The contract, read once: openapi/openapi.yaml parsed, with its served JSON and YAML forms.

Parsing the YAML costs about a third of a second of CPU, paid by every process that starts the
app or reads the contract. The parse is kept as its served JSON beside the file, in
`openapi/__pycache__/openapi.yaml.<SHA-256 of the YAML>.json`, as Python keeps bytecode: a process
that finds the JSON of the same YAML reads it instead (about 12 ms). A changed YAML has another
digest, so it is parsed again and its JSON replaces the old one. Nothing is written where Python
would write no bytecode (PYTHONDONTWRITEBYTECODE) or where the folder is read-only, and a JSON that
would not give back the parsed document (a YAML date, say) is not kept.
"""

from __future__ import annotations

import copy
import hashlib
import json
import os
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import yaml

SPEC_PATH = Path(__file__).resolve().parent.parent / "openapi" / "openapi.yaml"
SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml: ~8x the pure-Python parser
_PARSED: dict[tuple, tuple[dict, bytes, bytes]] = {}  # Contract.load's last parse in this process


@dataclass
class Contract:
    """The parsed document and its served JSON and YAML forms."""

    document: dict
    yaml_bytes: bytes
    json_bytes: bytes

    @classmethod
    def load(cls, path: Path = SPEC_PATH) -> Contract:
        """Read openapi.yaml, parsed or from its kept JSON (the module's docstring).

        A file read once in this process (same path, size and modification time) is not read
        again: the caller gets its own deep copy of the parsed document.
        """
        stat = path.stat()
        key = (str(path), stat.st_size, stat.st_mtime_ns)
        if key not in _PARSED:
            raw = path.read_bytes()
            document, json_bytes = _parsed(path, raw)
            _PARSED.clear()
            _PARSED[key] = (document, raw, json_bytes)
        document, raw, json_bytes = _PARSED[key]
        return cls(copy.deepcopy(document), raw, json_bytes)

    def in_time_zone(self, zone: str) -> Contract:
        """The contract as served by a platform in this time zone (info.x-modhub-time-zone)."""
        written = self.document["info"].get("x-modhub-time-zone")
        if zone == written:
            return self
        document = {**self.document, "info": {**self.document["info"], "x-modhub-time-zone": zone}}
        line = b"\n  x-modhub-time-zone: %s\n"
        yaml_bytes = self.yaml_bytes.replace(
            line % str(written).encode(), line % json.dumps(zone).encode(), 1
        )
        return Contract(document, yaml_bytes, json.dumps(document, ensure_ascii=False).encode())


def kept_path(path: Path, raw: bytes) -> Path:
    """Where the JSON of this YAML text is kept."""
    return path.parent / "__pycache__" / f"{path.name}.{hashlib.sha256(raw).hexdigest()[:32]}.json"


def _parsed(path: Path, raw: bytes) -> tuple[dict, bytes]:
    """The document and its JSON: read back from the kept JSON when there is one, else parsed."""
    kept = kept_path(path, raw)
    try:
        json_bytes = kept.read_bytes()
        return json.loads(json_bytes), json_bytes
    except (OSError, ValueError):  # none kept yet, or unreadable: parse
        pass
    document = yaml.load(raw, Loader=SAFE_LOADER)
    json_bytes = json.dumps(document, ensure_ascii=False).encode()
    if not sys.dont_write_bytecode and json.loads(json_bytes) == document:
        _keep(kept, json_bytes)
    return document, json_bytes


def _keep(kept: Path, json_bytes: bytes) -> None:
    """Write the JSON whole (a temporary file renamed over it: a process reading at the same time
    sees the old file or the new one) and remove the JSON kept for earlier texts of the file."""
    try:
        kept.parent.mkdir(exist_ok=True)
        fd, temporary = tempfile.mkstemp(dir=kept.parent, prefix=".contract-", suffix=".tmp")
        with os.fdopen(fd, "wb") as out:
            out.write(json_bytes)
        os.replace(temporary, kept)
        stem = kept.name.rsplit(".", 2)[0]  # "openapi.yaml"
        for older in kept.parent.glob(f"{stem}.*.json"):
            if older != kept:
                older.unlink(missing_ok=True)
    except OSError:  # a read-only install: every process parses, as before
        pass
