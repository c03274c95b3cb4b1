"""The README's quick start runs as written against the live server."""

from __future__ import annotations

import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def test_the_quick_start_runs(server, tmp_path, monkeypatch, capsys):
    text = README.read_text(encoding="utf-8")
    block = re.search(r"## Quick start\n\n```python\n(.*?)```", text, re.S).group(1)
    assert len(block.strip().splitlines()) <= 10
    code = (
        block.replace('"http://127.0.0.1:8000"', repr(server.base_url))
        .replace('"API_KEY"', repr(server.api_key))
        .replace('"SECRET_KEY"', repr(server.secret_key))
    )
    monkeypatch.chdir(tmp_path)
    exec(compile(code, str(README), "exec"), {})  # noqa: S102 - the documented sample itself
    assert (tmp_path / "mods" / "a.jar").stat().st_size > 0
    assert capsys.readouterr().out.count("\n") > 0
