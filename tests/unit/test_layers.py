"""The layers hold: models/ and modhub/core/ never import the app shell, the domain packages of
models/ import each other only along the DAG below, and the CLI and
worker modules import each other without loops (every import counts, lazy ones included)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _module(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(path: Path) -> set[str]:
    """Every module named by an import statement of the file, at any depth."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def _files(folder: str) -> list[Path]:
    return sorted((ROOT / folder).rglob("*.py"))


def _within(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def test_the_scan_sees_the_files():
    assert len(_files("models")) > 20 and len(_files("modhub/core")) >= 5


@pytest.mark.parametrize("path", _files("models"), ids=lambda p: str(p.relative_to(ROOT)))
def test_models_import_only_the_core_of_modhub(path):
    shell = sorted(
        name
        for name in _imports(path)
        if _within(name, "modhub")
        and not _within(name, "modhub.core")
        and name != "modhub"
        or any(_within(name, top) for top in ("handlers", "workers"))
    )
    assert shell == [], f"{path.relative_to(ROOT)} imports the app shell: {shell}"


@pytest.mark.parametrize("path", _files("modhub/core"), ids=lambda p: str(p.relative_to(ROOT)))
def test_the_core_imports_nothing_above_it(path):
    above = sorted(
        name
        for name in _imports(path)
        if any(_within(name, top) for top in ("models", "handlers", "workers"))
        or _within(name, "modhub")
        and not _within(name, "modhub.core")
    )
    assert above == [], f"{path.relative_to(ROOT)} imports above the core: {above}"


@pytest.mark.parametrize("folder", ["modhub/cli", "workers"])
def test_no_import_loop(folder):
    files = {_module(p): p for p in _files(folder)}
    graph = {
        mod: {other for other in files if other != mod and other in _imports(path)}
        for mod, path in files.items()
    }
    # a package's __init__ re-exporting its own submodule is not a loop between modules
    package = folder.replace("/", ".")
    graph.pop(package, None)
    for edges in graph.values():
        edges.discard(package)

    def loop_from(start):
        stack = [(start, [start])]
        while stack:
            node, trail = stack.pop()
            for nxt in graph.get(node, ()):
                if nxt == start:
                    return trail + [start]
                if nxt not in trail:
                    stack.append((nxt, trail + [nxt]))
        return None

    loops = [loop for loop in map(loop_from, graph) if loop]
    assert loops == [], f"import loops in {folder}: {loops}"


# Which domain packages of models/ each one may import: an explicit DAG (arrows point down). The
# shared modules beside them (models.base, models.types, models.paging, models.record_cache) are
# below every domain. A new import between domains must be added here, and may not close a loop.
DOMAINS = {
    "identity": set(),
    "webhooks": {"identity"},
    "catalog": {"identity", "webhooks"},
    "search": {"catalog"},
    "files": {"catalog"},
    "community": {"catalog", "identity", "search", "webhooks"},
    "console": {"identity", "webhooks"},
    "downloads": {"catalog", "files", "identity"},
    "lobby": {"catalog", "files", "identity"},
    "legacy": {"catalog", "community", "search"},
    "authoring": {"catalog", "community", "console", "identity"},
}


def _domain_imports(package: str) -> dict[str, list[str]]:
    """Other domain packages a domain package imports, with the files that do."""
    found: dict[str, list[str]] = {}
    for path in _files(f"models/{package}"):
        for name in _imports(path):
            parts = name.split(".")
            if len(parts) > 1 and parts[0] == "models" and parts[1] in DOMAINS and parts[1] != package:
                found.setdefault(parts[1], []).append(str(path.relative_to(ROOT)))
    return found


def test_every_domain_package_is_in_the_map():
    packages = {p.name for p in (ROOT / "models").iterdir() if (p / "__init__.py").exists()}
    assert packages == set(DOMAINS)


def test_the_allowed_dependencies_have_no_loop():
    order, state = [], dict.fromkeys(DOMAINS, 0)

    def visit(node, trail):
        assert state[node] != 1, f"loop between domains: {' -> '.join(trail + [node])}"
        if state[node] == 0:
            state[node] = 1
            for nxt in sorted(DOMAINS[node]):
                visit(nxt, trail + [node])
            state[node] = 2
            order.append(node)

    for node in DOMAINS:
        visit(node, [])
    assert len(order) == len(DOMAINS)


@pytest.mark.parametrize("package", sorted(DOMAINS))
def test_domain_imports_follow_the_map(package):
    unexpected = {
        other: files for other, files in _domain_imports(package).items() if other not in DOMAINS[package]
    }
    assert unexpected == {}, f"models/{package} imports domains outside its allowed set: {unexpected}"


def test_the_shared_model_modules_import_no_domain():
    for name in ("base", "types", "paging", "record_cache"):
        domains = sorted(
            n
            for n in _imports(ROOT / "models" / f"{name}.py")
            if n.split(".")[1:2] and n.split(".")[1] in DOMAINS
        )
        assert domains == [], f"models/{name}.py imports a domain: {domains}"
