"""Servers the benchmarks start on loopback: waiting until one answers, stopping it."""

from __future__ import annotations

import subprocess
import time
import urllib.error
import urllib.request


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
        f"server on port {port} did not start: {' '.join(map(str, proc.args))}\n"
        + (proc.stderr.read().decode(errors="replace")[-2000:] if proc.stderr else "")
    )


def stop(proc: subprocess.Popen) -> None:
    """Terminate the server and wait for it."""
    proc.terminate()
    proc.wait(15)
