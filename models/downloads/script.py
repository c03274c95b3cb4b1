"""The parsed parts of an install script (install.py describes its members): the script as a JSON
object, its check against the contract's InstallScript, and the members the install configuration
answers (preChecks, postActions, serverPackLayout, the versionRequirement of dependencies), each
read defensively. A script that is not a JSON object has no parts."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import jsonschema

from models.downloads.vos import PostAction, PreCheck, ScriptDocument, ServerPackLayout

LAYOUT_KEYS = (
    "version",
    "status",
    "rootPath",
    "stripComponents",
    "fileCount",
    "uncompressedSize",
    "sizesVerified",
    "hasLibrariesJar",
    "hasModsJar",
)


def parse(script: str | None) -> ScriptDocument:
    """The script as a JSON object, or {} when there is none or it is not one."""
    if not script:
        return {}
    try:
        doc = json.loads(script)
    except ValueError:
        return {}
    return doc if isinstance(doc, dict) else {}


def script_checker(document: dict[str, Any]) -> Callable[[ScriptDocument], bool]:
    """Whether a parsed script is an InstallScript: the contract's component (plain JSON Schema,
    its $refs inlined) checked by jsonschema. `document` is the contract as parsed JSON."""
    schemas = document["components"]["schemas"]

    def inline(node: object) -> object:
        if isinstance(node, dict):
            if "$ref" in node:
                return inline(schemas[node["$ref"].rsplit("/", 1)[1]])
            return {k: inline(v) for k, v in node.items() if k not in ("example", "x-modhub-extension")}
        return [inline(v) for v in node] if isinstance(node, list) else node

    validator = jsonschema.Draft4Validator(inline(schemas["InstallScript"]))

    def is_script(doc: ScriptDocument) -> bool:
        return bool(validator.is_valid(doc))

    return is_script


def text(v: object) -> str | None:
    """A member's value when it is a string, else None."""
    return v if isinstance(v, str) else None


def _objects(doc: ScriptDocument, name: str) -> list[dict[str, object]]:
    items = doc.get(name)
    return [i for i in items if isinstance(i, dict)] if isinstance(items, list) else []


def requirements(doc: ScriptDocument) -> dict[int, str]:
    """resourcePostId -> versionRequirement of the script's dependencies member."""
    wanted: dict[int, str] = {}
    for d in _objects(doc, "dependencies"):
        post_id, requirement = d.get("resourcePostId"), d.get("versionRequirement")
        if isinstance(post_id, int) and not isinstance(post_id, bool) and isinstance(requirement, str):
            wanted[post_id] = requirement
    return wanted


def pre_checks(doc: ScriptDocument) -> list[PreCheck]:
    """PreCheck list of the script."""
    return [
        {
            "type": text(c.get("type")),
            "condition": text(c.get("condition")),
            "failMessage": text(c.get("failMessage")),
        }
        for c in _objects(doc, "preChecks")
    ]


def _params(action: dict[str, object]) -> dict[str, object] | None:
    params = action.get("params")
    return params if isinstance(params, dict) else None


def post_actions(doc: ScriptDocument) -> list[PostAction]:
    """PostAction list of the script."""
    return [{"type": text(a.get("type")), "params": _params(a)} for a in _objects(doc, "postActions")]


def server_pack_layout(doc: ScriptDocument) -> ServerPackLayout | None:
    """ServerPackLayout of the script, or null."""
    layout = doc.get("serverPackLayout")
    if not isinstance(layout, dict):
        return None
    out = {k: layout.get(k) for k in LAYOUT_KEYS}
    if out["status"] not in ("ROOT", "WRAPPED", "PENDING", "UNKNOWN", "AMBIGUOUS"):
        out["status"] = None
    return out
