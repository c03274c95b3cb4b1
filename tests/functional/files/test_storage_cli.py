"""`modhub storage check` on the embedded mode over the seeded demo files."""

import pytest
from click.testing import CliRunner

from modhub.cli import main


@pytest.fixture()
def run(tmp_path, monkeypatch):
    for name in ("DATABASE_URL", "REDIS_URL", "ENCRYPTION_KEY", "PRODUCTION", "STORAGE_URL"):
        monkeypatch.delenv(f"MODHUB_{name}", raising=False)
    monkeypatch.setenv("MODHUB_DATA_DIR", str(tmp_path / "data"))

    def invoke(*args, ok=True):
        result = CliRunner().invoke(main, list(args), catch_exceptions=False)
        assert (result.exit_code == 0) is ok, result.output
        return result

    invoke("db", "upgrade")
    return invoke


def test_storage_check_finds_changed_and_missing_bytes(run, tmp_path):
    run("demo", "seed", "--resources", "8")
    result = run("storage", "check")
    checked = int(result.output.split()[0])
    assert checked > 0 and result.output.strip().endswith(", 0 problem(s)")
    stored = sorted(
        p for p in (tmp_path / "data" / "files").rglob("*") if p.is_file() and p.parent.name != "tmp"
    )
    assert len(stored) == checked
    stored[0].write_bytes(stored[0].read_bytes()[:-1] + b"!")
    stored[1].unlink()
    result = run("storage", "check", ok=False)
    assert f"{stored[0].name}: sha256 " in result.output
    assert f"{stored[1].name}: missing" in result.output
    assert result.output.strip().endswith(", 2 problem(s)")
