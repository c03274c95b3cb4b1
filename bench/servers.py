"""Servers the benchmarks start on loopback: starting one with its output in a log file, waiting
until it answers, stopping it."""

from __future__ import annotations

import os
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LOGS = Path(tempfile.gettempdir()) / "modhub-bench-logs"


def start(cmd: list[str], *, env: dict | None = None, name: str = "server") -> subprocess.Popen:
    """cmd started in the project's root with env added to this environment. Its output goes to
    a log file (LOGS/name-PID.log), never to a pipe: a server writing its access log into a pipe
    nobody reads stops answering once the pipe's 64 KiB are full."""
    LOGS.mkdir(exist_ok=True)
    log = tempfile.NamedTemporaryFile(dir=LOGS, prefix=f"{name}-", suffix=".log", delete=False)
    proc = subprocess.Popen(
        cmd, cwd=ROOT, env={**os.environ, **(env or {})}, stdout=log, stderr=subprocess.STDOUT
    )
    log.close()
    proc.log_path = log.name  # read by wait_serving on failure
    return proc


def _log_tail(proc: subprocess.Popen) -> str:
    path = getattr(proc, "log_path", None)
    return Path(path).read_text(errors="replace")[-2000:] if path else ""


def wait_serving(port: int, proc: subprocess.Popen) -> subprocess.Popen:
    """proc, once something answers HTTP on the port (any status counts)."""
    for _ in range(300):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/openapi/v2/meta/openapi.json", timeout=1)
            return proc
        except urllib.error.HTTPError:  # any HTTP answer means it is serving
            return proc
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit(
        f"server on port {port} did not start: {' '.join(map(str, proc.args))}\n" + _log_tail(proc)
    )


def stop(proc: subprocess.Popen, wait: float = 30) -> None:
    """Terminate the process and wait for it; killed when it has not ended after `wait` seconds
    (a worker finishes its job first)."""
    proc.terminate()
    try:
        proc.wait(wait)
    except subprocess.TimeoutExpired:
        print(f"pid {proc.pid} had not stopped {wait:g} s after SIGTERM: killed")
        proc.kill()
        proc.wait()
