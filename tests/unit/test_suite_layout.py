"""The suite's own structure holds: test modules import helpers from tests/helpers/, never from a
conftest (a conftest holds fixtures); the tests never import the benchmarks (bench/ may use the
tests' helpers, not the other way round)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.unit.test_layers import _imports

ROOT = Path(__file__).resolve().parents[2]
TEST_FILES = sorted((ROOT / "tests").rglob("*.py"))


def test_the_scan_sees_the_suite():
    assert len(TEST_FILES) > 100


@pytest.mark.parametrize("path", TEST_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_import_from_a_conftest_or_the_benchmarks(path):
    wrong = sorted(
        name
        for name in _imports(path)
        if name.split(".")[-1] == "conftest" or ".conftest." in name or name.split(".")[0] == "bench"
    )
    assert wrong == [], f"{path.relative_to(ROOT)} imports {wrong}: use tests/helpers/ instead"


def test_conftests_hold_fixtures_and_hooks_only():
    """Nothing but imports, fixtures, hooks, pytest_plugins and the docstring in a conftest."""
    import ast

    for path in ROOT.joinpath("tests").rglob("conftest.py"):
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, (ast.Import, ast.ImportFrom, ast.Expr)):
                continue
            if isinstance(node, ast.Assign) and all(
                isinstance(t, ast.Attribute) or (isinstance(t, ast.Name) and t.id == "pytest_plugins")
                for t in node.targets
            ):
                continue  # pytest_plugins, and settings of imported modules (the test hash costs)
            if isinstance(node, ast.FunctionDef) and (
                node.name.startswith("pytest_")
                or any(
                    "fixture" in ast.unparse(d) or "hookimpl" in ast.unparse(d) for d in node.decorator_list
                )
            ):
                continue
            where = f"{path.relative_to(ROOT)}:{node.lineno}"
            raise AssertionError(f"{where} is neither a fixture nor a hook: move it to tests/helpers/")
