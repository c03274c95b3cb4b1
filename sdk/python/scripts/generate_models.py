"""Generate src/modhub_client/models.py from the contract's components/schemas.

Every object schema becomes a TypedDict (the JSON the server sends or takes, keys as written in the
contract); required properties are required keys, the others optional ones (a two-class pair, so
that Python 3.10 needs no typing_extensions). Inline object properties become TypedDicts named
after their parent and property. Usage: `python scripts/generate_models.py [--check]` from any
folder; --check exits 1 when the committed file differs from what the contract gives.
"""

from __future__ import annotations

import argparse
import keyword
import sys
from pathlib import Path
from typing import Any

import yaml

HERE = Path(__file__).resolve().parent
CONTRACT = HERE.parents[2] / "openapi" / "openapi.yaml"
OUTPUT = HERE.parent / "src" / "modhub_client" / "models.py"

HEADER = '''# ruff: noqa: E501
# fmt: off
"""Models of the modhub Open API contract {version}, generated from openapi/openapi.yaml by
sdk/python/scripts/generate_models.py: do not edit by hand (tests/test_models.py fails on drift)."""

from __future__ import annotations

from typing import Any, Literal, TypedDict

CONTRACT_VERSION = "{version}"
'''


class Generator:
    """Turns the contract's schemas into TypedDict source text, one class per object schema."""

    def __init__(self, contract: dict[str, Any]):
        self.schemas: dict[str, Any] = contract["components"]["schemas"]
        self.version: str = contract["info"]["version"]
        self.blocks: list[str] = []

    def run(self) -> str:
        """The whole module's text."""
        for name in sorted(self.schemas):
            self.named(name, self.schemas[name])
        return HEADER.format(version=self.version) + "".join(self.blocks)

    def named(self, name: str, schema: dict[str, Any]) -> None:
        """Emit a class (object schemas) or a type alias (anything else) for one named schema."""
        schema = self.merged(schema)
        if schema.get("type") == "object" and "properties" in schema:
            self.typed_dict(name, schema)
        else:
            self.blocks.append(f"\n{name} = {self.annotation(schema, name)}\n")

    def merged(self, schema: dict[str, Any]) -> dict[str, Any]:
        """allOf folded into one object schema (properties and required united)."""
        if "allOf" not in schema:
            return schema
        out: dict[str, Any] = {"type": "object", "properties": {}, "required": []}
        for part in schema["allOf"]:
            part = self.merged(self.resolve(part))
            out["properties"].update(part.get("properties", {}))
            out["required"] += part.get("required", [])
            if "description" in part and "description" not in out:
                out["description"] = part["description"]
        return out

    def resolve(self, schema: dict[str, Any]) -> dict[str, Any]:
        """A $ref replaced by the schema it names."""
        ref = schema.get("$ref")
        return self.schemas[ref.rsplit("/", 1)[1]] if ref else schema

    def typed_dict(self, name: str, schema: dict[str, Any]) -> None:
        """A TypedDict; required keys in a base class when some keys are optional."""
        props: dict[str, Any] = schema["properties"]
        required = [p for p in props if p in schema.get("required", [])]
        optional = [p for p in props if p not in required]
        fields = {p: self.annotation(props[p], name + p[:1].upper() + p[1:]) for p in props}
        doc = " ".join(str(schema.get("description", name)).split())
        if required and optional:
            self.emit(
                f"_{name}Required", [(p, fields[p]) for p in required], None, f"Required keys of {name}."
            )
            self.emit(name, [(p, fields[p]) for p in optional], f"_{name}Required", doc, total=False)
        else:
            self.emit(name, [(p, fields[p]) for p in props], None, doc, total=not optional)

    def emit(
        self, name: str, fields: list[tuple[str, str]], base: str | None, doc: str, total: bool = True
    ) -> None:
        """Class syntax when every key is an identifier, else the functional form."""
        if all(p.isidentifier() and not keyword.iskeyword(p) for p, _ in fields):
            head = f"class {name}({base or 'TypedDict'}{'' if total else ', total=False'}):"
            body = [f"    {p}: {a}" for p, a in fields] or ["    pass"]
            doc_line = f'    """{_short(doc)}"""'
            self.blocks.append("\n\n" + "\n".join([head, doc_line, *body]) + "\n")
        else:
            items = ", ".join(f"{p!r}: {a!r}" for p, a in fields)
            self.blocks.append(f"\n{name} = TypedDict({name!r}, {{{items}}}, total={total})\n")

    def annotation(self, schema: dict[str, Any], context: str) -> str:
        """The Python annotation of a property schema (nested objects become classes)."""
        nullable = bool(schema.get("nullable"))
        if "$ref" in schema:
            text = schema["$ref"].rsplit("/", 1)[1]
        elif "allOf" in schema:
            refs = [s for s in schema["allOf"] if "$ref" in s]
            text = (
                self.annotation(refs[0], context)
                if len(refs) == 1 and len(schema["allOf"]) == 1
                else self.inline(self.merged(schema), context)
            )
        elif "oneOf" in schema or "anyOf" in schema:
            options = [s for s in schema.get("oneOf", schema.get("anyOf", []))]
            texts: list[str] = []
            for option in options:
                if option.get("enum") == [None]:
                    nullable = True
                    continue
                texts.append(self.annotation(option, context))
            text = " | ".join(dict.fromkeys(texts))
        elif "enum" in schema:
            values = [v for v in schema["enum"] if v is not None]
            nullable = nullable or None in schema["enum"]
            text = "Literal[" + ", ".join(repr(v) for v in values) + "]"
        else:
            text = self.plain(schema, context)
        return f"{text} | None" if nullable and not text.endswith("| None") else text

    def plain(self, schema: dict[str, Any], context: str) -> str:
        """Annotation of a schema with a plain type (or none)."""
        kind = schema.get("type")
        if kind == "array":
            return f"list[{self.annotation(schema.get('items', {}), context + 'Item')}]"
        if kind == "object":
            if schema.get("properties"):
                return self.inline(schema, context)
            extra = schema.get("additionalProperties")
            value = self.annotation(extra, context + "Value") if isinstance(extra, dict) and extra else "Any"
            return f"dict[str, {value}]"
        return {"string": "str", "integer": "int", "number": "float", "boolean": "bool"}.get(str(kind), "Any")

    def inline(self, schema: dict[str, Any], name: str) -> str:
        """An inline object schema emitted as its own class; its name."""
        self.typed_dict(name, schema)
        return name


def _short(text: str) -> str:
    text = text.replace('"""', "'''").replace("\\", "\\\\")
    return text if len(text) <= 90 else text[:87].rsplit(" ", 1)[0] + " ..."


def load(contract_path: Path = CONTRACT) -> dict[str, Any]:
    """The contract as a dict (libyaml's loader when there: ten times faster)."""
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    with open(contract_path, encoding="utf-8") as handle:
        contract: dict[str, Any] = yaml.load(handle, Loader=loader)  # noqa: S506 - a safe loader
        return contract


def generate(contract_path: Path = CONTRACT) -> str:
    """The text models.py must have for the given contract."""
    return Generator(load(contract_path)).run()


def main() -> int:
    """Write models.py, or with --check compare it with the contract."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 when models.py is stale")
    args = parser.parse_args()
    text = generate()
    if args.check:
        current = OUTPUT.read_text(encoding="utf-8") if OUTPUT.exists() else ""
        if current != text:
            print(f"{OUTPUT} is stale: run {Path(__file__).name}", file=sys.stderr)
            return 1
        return 0
    OUTPUT.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
