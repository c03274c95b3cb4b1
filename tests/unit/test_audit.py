"""The dependency audit's verdicts (.ci/audit.py): a finding fails unless acknowledged, a stale or
malformed acknowledgement fails, an unreachable service only degrades."""

import datetime as dt
import importlib.util
from pathlib import Path

import pytest

SPEC = importlib.util.spec_from_file_location("audit", Path(__file__).parents[2] / ".ci" / "audit.py")
audit = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(audit)

PIP = {
    "dependencies": [
        {"name": "flask", "version": "3.1.3", "vulns": []},
        {
            "name": "jinja2",
            "version": "3.0.0",
            "vulns": [{"id": "PYSEC-2024-1", "aliases": ["GHSA-aaaa-bbbb-cccc"], "fix_versions": ["3.1.4"]}],
        },
        {"name": "modhub", "skip_reason": "not on PyPI"},
    ]
}
NPM = {
    "vulnerabilities": {
        "ajv": {"via": [{"source": 1097, "url": "https://github.com/advisories/GHSA-xxxx-yyyy-zzzz",
                         "range": "<6.12.3", "severity": "moderate", "title": "prototype pollution"}]},
        "spectral": {"via": ["ajv"]},
    }
}  # fmt: skip


def test_a_finding_is_reported_until_acknowledged_by_id_or_alias():
    findings, audited, skipped = audit.pip_findings(PIP, {})
    assert findings == ["jinja2 3.0.0: PYSEC-2024-1 (fixed in 3.1.4)"] and (audited, skipped) == (2, 1)
    assert audit.pip_findings(PIP, {"GHSA-AAAA-BBBB-CCCC": "n/a"})[0] == []
    assert len(audit.npm_findings(NPM, {})) == 1
    assert audit.npm_findings(NPM, {"GHSA-XXXX-YYYY-ZZZZ": "dev tool only"}) == []


def test_acknowledgements_need_an_id_a_recent_date_and_a_reason(tmp_path):
    path = tmp_path / "ignore.txt"
    path.write_text("# comment\nGHSA-aaaa-bbbb-cccc  2026-11-01  the vulnerable parser is never called\n")
    assert audit.acknowledged(path, today=dt.date(2026, 11, 25)) == {
        "GHSA-AAAA-BBBB-CCCC": "the vulnerable parser is never called"
    }
    with pytest.raises(SystemExit, match="look again"):
        audit.acknowledged(path, today=dt.date(2028, 1, 1))
    path.write_text("GHSA-aaaa-bbbb-cccc  2026-11-01\n")
    with pytest.raises(SystemExit, match="want"):
        audit.acknowledged(path)


def test_only_a_network_failure_degrades():
    assert audit.NETWORK.search(
        "npm warn audit 405 Method Not Allowed - POST https://registry/-/npm/v1/security"
    )
    assert audit.NETWORK.search("requests.exceptions.ConnectionError: Max retries exceeded with url")
    assert not audit.NETWORK.search("jinja2 3.0.0: PYSEC-2024-1 (fixed in 3.1.4)")


def test_the_committed_acknowledgements_are_well_formed():
    audit.acknowledged()
