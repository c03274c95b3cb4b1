"""Dependencies audited: pip-audit over constraints.txt, npm audit over the linters' lockfile
(.ci/node) and the TypeScript package's (sdk/typescript, when it has one).

    .venv/bin/python .ci/audit.py

A known vulnerability fails the run (exit 1) unless .ci/audit-ignore.txt acknowledges it: one
line per advisory, `ID  YYYY-MM-DD  reason` (the id pip-audit or npm prints, or an alias of it;
the date the decision was taken; why it does not apply here). An entry older than a year fails
the run too: look again. When a vulnerability service cannot be reached (no network, a registry
mirror that does not serve it), that part says so on a line starting with `AUDIT NOT RUN` and
the run goes on: only a network failure degrades, never a finding.
"""

from __future__ import annotations

import datetime as dt
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
IGNORE = ROOT / ".ci" / "audit-ignore.txt"
NPM_PROJECTS = [ROOT / ".ci" / "node", ROOT / "sdk" / "typescript"]
MAX_AGE = dt.timedelta(days=366)
# What a service that could not be reached looks like (connection, DNS, TLS, an HTTP refusal of
# the endpoint itself); anything else is a failure of the audit and fails the run.
NETWORK = re.compile(
    r"ConnectionError|NameResolutionError|Max retries exceeded|timed out|ENOTFOUND|EAI_AGAIN|"
    r"ECONNREFUSED|ECONNRESET|ETIMEDOUT|SSLError|CERT_|audit endpoint returned an error|"
    r"\b(403|404|405|429|500|502|503|504)\b[^\n]*(Forbidden|Not Found|Method Not Allowed|"
    r"Too Many|Server Error|Bad Gateway|Unavailable|Timeout)",
    re.I,
)


def acknowledged(path: Path = IGNORE, today: dt.date | None = None) -> dict[str, str]:
    """id -> reason of every acknowledged advisory; a malformed or stale line is an error."""
    today = today or dt.date.today()
    out: dict[str, str] = {}
    for number, line in enumerate(path.read_text().splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        parts = line.split(None, 2)
        if len(parts) < 3:
            raise SystemExit(f"{path.name}:{number}: want `ID  YYYY-MM-DD  reason`, got {line!r}")
        ident, date, reason = parts
        try:
            taken = dt.date.fromisoformat(date)
        except ValueError:
            raise SystemExit(f"{path.name}:{number}: {date!r} is not a YYYY-MM-DD date") from None
        if today - taken > MAX_AGE:
            raise SystemExit(f"{path.name}:{number}: {ident} was acknowledged on {date}: look again")
        out[ident.upper()] = reason
    return out


def pip_findings(report: dict, ignored: dict[str, str]) -> tuple[list[str], int, int]:
    """(findings not acknowledged, packages audited, packages skipped) of a pip-audit JSON report."""
    findings, audited, skipped = [], 0, 0
    for dep in report.get("dependencies", []):
        if "skip_reason" in dep:
            skipped += 1
            continue
        audited += 1
        for vuln in dep.get("vulns", []):
            names = {vuln["id"].upper(), *(a.upper() for a in vuln.get("aliases", []))}
            if not names & ignored.keys():
                fixed = ", ".join(vuln.get("fix_versions", [])) or "no fix yet"
                findings.append(f"{dep['name']} {dep['version']}: {vuln['id']} (fixed in {fixed})")
    return findings, audited, skipped


def npm_findings(report: dict, ignored: dict[str, str]) -> list[str]:
    """Findings not acknowledged of an `npm audit --json` report (advisory ids: GHSA or URL)."""
    findings = []
    for name, entry in report.get("vulnerabilities", {}).items():
        for via in entry.get("via", []):
            if not isinstance(via, dict):
                continue  # a package that is vulnerable through another one, listed itself
            url = via.get("url", "")
            names = {str(via.get("source", "")).upper(), url.rsplit("/", 1)[-1].upper()}
            if not names & ignored.keys():
                findings.append(
                    f"{name} {via.get('range', '')}: {url or via.get('title')} ({via.get('severity')})"
                )
    return sorted(set(findings))


def audit_python(ignored: dict[str, str]) -> list[str]:
    """pip-audit over constraints.txt (no resolution: the pins are the whole set)."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "pip-audit.json"
        run = subprocess.run(
            [sys.executable, "-m", "pip_audit", "-r", str(ROOT / "constraints.txt"), "--no-deps",
             "--disable-pip", "--progress-spinner", "off", "-f", "json", "-o", str(out)],
            capture_output=True, text=True, check=False,
        )  # fmt: skip
        report = json.loads(out.read_text()) if out.exists() and out.stat().st_size else None
    if report is None:
        if NETWORK.search(run.stderr):
            print(f"AUDIT NOT RUN (pip-audit): the vulnerability service is unreachable: {_last(run.stderr)}")
            return []
        return [f"pip-audit failed (exit {run.returncode}): {_last(run.stderr)}"]
    findings, audited, skipped = pip_findings(report, ignored)
    if audited == 0 and not findings:
        reasons = {d.get("skip_reason", "")[:60] for d in report.get("dependencies", [])}
        print(
            f"AUDIT NOT RUN (pip-audit): none of the {skipped} pinned packages could be looked up "
            f"(the PyPI JSON API answers no per-version document here): {sorted(reasons)[:1]}"
        )
        return []
    print(f"pip-audit: {audited} packages audited, {skipped} skipped, {len(findings)} finding(s)")
    return findings


def audit_npm(project: Path, ignored: dict[str, str]) -> list[str]:
    """npm audit over a lockfile (nothing installed or changed)."""
    if not (project / "package-lock.json").exists():
        print(f"npm audit: {project.relative_to(ROOT)} has no package-lock.json: nothing to audit")
        return []
    run = subprocess.run(
        ["npm", "audit", "--json", "--package-lock-only"],
        cwd=project,
        capture_output=True,
        text=True,
        check=False,
    )
    try:
        report = json.loads(run.stdout)
    except ValueError:
        report = {}
    where = project.relative_to(ROOT)
    if "vulnerabilities" in report:
        findings = npm_findings(report, ignored)
        print(f"npm audit ({where}): {len(findings)} finding(s)")
        return findings
    if NETWORK.search(json.dumps(report) + run.stderr):
        print(f"AUDIT NOT RUN (npm audit, {where}): the advisory service is unreachable: {_last(run.stderr)}")
        return []
    return [f"npm audit ({where}) failed (exit {run.returncode}): {_last(run.stderr or run.stdout)}"]


def _last(text: str) -> str:
    """The line that says why: the first naming a network failure, else the last one."""
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    named = [line for line in lines if NETWORK.search(line)]
    return (named or lines or ["(no message)"])[0 if named else -1][:300]


def main() -> int:
    ignored = acknowledged()
    findings = audit_python(ignored)
    for project in NPM_PROJECTS:
        if project.exists():
            findings += audit_npm(project, ignored)
    for finding in findings:
        print(f"VULNERABLE {finding}")
    if findings:
        print(f"{len(findings)} known vulnerabilities: upgrade, or acknowledge one in {IGNORE.name}")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
