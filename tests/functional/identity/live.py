"""A real server for the browser and concurrency tests: uvicorn on a free loopback port in a thread,
over its own committed database (the rolled-back `db` fixture cannot be shared across connections).
"""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import threading
import time

import requests
import uvicorn
from sqlalchemy.engine import make_url

from modhub.app import create_app
from tests.helpers.env import PG_URL, RUN_PG_URL
from tests.support import drop_database, migrated_database

BASE_PG_URL = PG_URL  # the run's (xdist worker's) test database


def scratch_url(suffix: str) -> str:
    """The URL of a scratch database named after the test database plus a suffix."""
    url = make_url(BASE_PG_URL)
    return url.set(database=f"{url.database}_{suffix}").render_as_string(hide_password=False)


@contextlib.contextmanager
def scratch_database(suffix: str):
    """A fresh database migrated to every head (a copy of the migrated template), dropped
    afterwards."""
    url = scratch_url(suffix)
    migrated_database(url, RUN_PG_URL)
    try:
        yield url
    finally:
        drop_database(url)


@contextlib.contextmanager
def serve(app):
    """Serve an ASGI app on 127.0.0.1 and a free port; yields the base URL."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(
        uvicorn.Config(app, log_level="warning", lifespan="off", ws="none", access_log=False)
    )
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the test server did not start")
        time.sleep(0.02)  # waiting for the server thread to bind, not for the code under test
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)
        sock.close()


def live_app(settings, url: str, **parts):
    """The full application over a committed scratch database."""
    return create_app(settings.replace(database_url=url, validate_responses=False), **parts)


def _wait_ready(base: str, proc, timeout: float = 90) -> None:  # a busy 2-core machine
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"server process exited with {proc.returncode}")
        try:
            if requests.get(base + "/openapi/v2/meta/openapi.json", timeout=2).status_code == 200:
                return
        except (requests.ConnectionError, requests.Timeout):
            pass
        time.sleep(0.05)  # polling a starting server process, not waiting on the code under test
    raise RuntimeError("server process did not become ready")


def start_processes(count: int, env: dict, procs: list) -> list[str]:
    """Start `count` separate uvicorn server processes (modhub.asgi:create) on inherited loopback
    sockets, appending their Popen objects to `procs`, and wait until they answer; returns their
    base URLs. The caller stops them (a process that started is in `procs` even if this raises)."""
    socks, bases = [], []
    try:
        for _ in range(count):
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            # uvicorn --fd takes the socket for AF_UNIX, so asyncio leaves Nagle on for the
            # connections it accepts: a response's body then waits up to 40 ms for the ACK of its
            # headers. Accepted sockets inherit TCP_NODELAY from the listener, as when uvicorn
            # binds the port itself.
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            sock.bind(("127.0.0.1", 0))
            sock.listen(128)
            socks.append(sock)
            bases.append(f"http://127.0.0.1:{sock.getsockname()[1]}")
            procs.append(
                subprocess.Popen(
                    [
                        sys.executable,
                        "-m",
                        "uvicorn",
                        "modhub.asgi:create",
                        "--factory",
                        "--fd",
                        str(sock.fileno()),
                        "--log-level",
                        "warning",
                        "--no-access-log",
                        "--lifespan",
                        "off",
                        "--ws",
                        "none",
                    ],
                    pass_fds=(sock.fileno(),),
                    env={**os.environ, **env},
                )
            )
            sock.close()  # the child holds it now: a killed server leaves no listener behind
    finally:
        for sock in socks:
            sock.close()  # (already closed unless a start failed half-way)
    for base, proc in zip(bases, procs[-count:], strict=True):
        _wait_ready(base, proc)
    return bases


@contextlib.contextmanager
def serve_processes(count: int, env: dict, procs: list | None = None):
    """`count` separate uvicorn server processes (modhub.asgi:create) on inherited loopback
    sockets; yields their base URLs (and fills `procs`, when given, with their Popen objects)."""
    procs = [] if procs is None else procs
    try:
        yield start_processes(count, env, procs)
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.terminate()
        for proc in procs:
            proc.wait(15)
