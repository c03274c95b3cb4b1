"""The docs site stays true: generated pages current, every setting documented, no diary."""

from __future__ import annotations

import re
from pathlib import Path

from docs import generate
from modhub.settings_table import DESCRIBED

ROOT = Path(__file__).resolve().parents[2]
PRODUCT = ("modhub", "models", "handlers", "workers", "migrations")
TEST_COMMAND = ".venv/bin/pip install -c constraints.txt -e '.[test,dev]' && .venv/bin/pytest"


def _product_sources():
    for folder in PRODUCT:
        yield from sorted((ROOT / folder).rglob("*.py"))


def settings_read() -> set[str]:
    """Every MODHUB_* variable the product code reads: the settings module's readers
    (`_env("NAME")`, `_number("NAME", ...)`) and direct reads of the environment elsewhere."""
    found = set(
        re.findall(
            r"\b_(?:env|number|flag|list|path)\(\s*\"([A-Z][A-Z0-9_]*)\"",
            (ROOT / "modhub" / "settings.py").read_text(),
        )
    )
    direct = re.compile(r"(?:environ(?:\.get)?\s*[\[(]|getenv\()\s*[\"']MODHUB_([A-Z0-9_]+)[\"']")
    for path in _product_sources():
        found |= set(direct.findall(path.read_text(encoding="utf-8")))
    return found


def test_generated_pages_are_current():
    assert generate.main(["--check"]) == 0, "run: python docs/generate.py"


def test_every_setting_read_is_documented_and_every_documented_one_read():
    documented = [name for _, name, _, _ in DESCRIBED]
    assert len(documented) == len(set(documented)), "a setting is described twice"
    read = settings_read()
    assert {"DATABASE_URL", "REDIS_URL", "RECORD_ERROR_CODES"} <= read  # the scan itself works
    assert read - set(documented) == set(), "read but not in modhub/settings_table.py DESCRIBED"
    assert set(documented) - read == set(), "described in DESCRIBED but read nowhere"


def test_every_setting_named_in_the_code_exists():
    """A message or docstring naming MODHUB_X points at a real, documented setting."""
    documented = {f"MODHUB_{name}" for _, name, _, _ in DESCRIBED}
    named = set()
    for path in _product_sources():
        named |= set(re.findall(r"MODHUB_[A-Z0-9_]*[A-Z0-9]", path.read_text(encoding="utf-8")))
    assert named - documented == set()


def test_the_readme_is_short_and_keeps_the_test_command():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.encode()) <= 15 * 1024
    test = readme.split("\n## Test\n", 1)[1]
    assert test.split("```sh\n", 1)[1].split("\n```", 1)[0] == TEST_COMMAND


DIARY = re.compile(
    r"\b(the lead|(this|that|first|second|third|fourth|fifth|sixth|seventh|"
    r"eighth|next|previous|earlier|helper) session|is owed|run-by-run)\b",
    re.I,
)


def test_no_diary_in_the_docs():
    pages = [
        ROOT / "README.md",
        ROOT / "CONTRIBUTING.md",
        ROOT / "CHANGELOG.md",
        *sorted((ROOT / "docs").rglob("*.md")),
    ]
    for page in pages:
        for n, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
            if DIARY.search(line):
                raise AssertionError(f"{page.relative_to(ROOT)}:{n}: {line}")
