"""`modhub run` as a person starts it, in an empty folder and again: the banner comes last, after
uvicorn's lines, and the start-up output carries no warning and no traceback."""

from __future__ import annotations

import os
import queue
import re
import signal
import socket
import subprocess
import sys
import threading
import time

import pytest
import requests

pytestmark = pytest.mark.slow  # a server process, twice


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _start(folder, port: int) -> tuple[list[str], str]:
    """Run `modhub run` in `folder` until its banner is printed; returns (output lines, base URL).
    The server is stopped with Ctrl+C (SIGINT) before returning."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("MODHUB_")}
    env["PYTHONUNBUFFERED"] = "1"
    proc = subprocess.Popen(
        [sys.executable, "-m", "modhub.cli", "run", "--port", str(port)],
        cwd=folder,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    lines: queue.Queue = queue.Queue()
    reader = threading.Thread(
        target=lambda: [lines.put(line.rstrip("\n")) for line in proc.stdout], daemon=True
    )
    reader.start()
    out, rules, deadline = [], 0, time.monotonic() + 240
    base = f"http://127.0.0.1:{port}"
    try:
        while rules < 2:  # the banner sits between two rules of '='
            assert time.monotonic() < deadline and proc.poll() is None, "\n".join(out)
            try:
                line = lines.get(timeout=1)
            except queue.Empty:
                continue
            out.append(line)
            rules += line.startswith("=" * 20)
        assert requests.get(f"{base}/openapi/v2/meta/docs/", timeout=30).status_code == 200
        time.sleep(1)  # anything printed right after the banner would show up now
        while not lines.empty():
            out.append(lines.get())
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        reader.join(timeout=10)  # the pipe is at its end once the process is gone
        proc.stdout.close()
    return out, base


def _check(out: list[str], base: str) -> None:
    text = "\n".join(out)
    assert "Traceback" not in text and "WARNING" not in text and "warning" not in text.lower(), text
    running = next(i for i, line in enumerate(out) if "Uvicorn running on" in line)
    first_rule = next(i for i, line in enumerate(out) if line.startswith("=" * 20))
    last_rule = max(i for i, line in enumerate(out) if line.startswith("=" * 20))
    assert running < first_rule  # the banner after the log lines, not in the middle of them
    after = [line for line in out[last_rule + 1 :] if line.strip() and " modhub.access " not in line]
    assert after == []  # nothing but the access log line of the docs request above
    banner = "\n".join(out[first_rule:last_rule])
    assert f"{base}/openapi/v2/meta/docs/" in banner and f"{base}/console" in banner
    assert "counted in this process" in banner and text.count("per process") == 0
    assert "alembic.runtime.plugins" not in text


def test_first_and_second_start_print_no_warning_and_end_with_the_banner(tmp_path):
    port = _free_port()
    first, base = _start(tmp_path, port)
    _check(first, base)
    assert any("Running upgrade" in line for line in first)  # the database was made here
    assert (tmp_path / "modhub-data" / "modhub.db").exists()
    second, base = _start(tmp_path, _free_port())
    _check(second, base)
    assert not any("Running upgrade" in line for line in second)
    password = re.search(r"demo / (\S+)", "\n".join(second)).group(1)
    assert password not in "\n".join(first)  # a new password each start
