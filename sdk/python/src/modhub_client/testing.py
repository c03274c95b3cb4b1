"""A real modhub server for integrators' tests: nothing mocked.

`EmbeddedServer` runs `modhub run` (the embedded default: SQLite and a file store in a temporary
data folder, a demo catalogue, a demo application) on a free loopback port and reads the demo
application's key and secret from its banner. The `modhub` command is taken from the
MODHUB_SERVER_COMMAND environment variable (a path, or a command line) or else from PATH.

    with EmbeddedServer() as server:
        client = server.client()

With pytest, `pytest_plugins = ["modhub_client.testing"]` gives the session fixture `modhub_server`
(its environment from the overridable session fixture `modhub_server_env`).
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from modhub_client.client import Client
from modhub_client.signing import ProxyUser

COMMAND_ENV = "MODHUB_SERVER_COMMAND"


class ServerNotFound(RuntimeError):
    """No `modhub` command to start (set MODHUB_SERVER_COMMAND or put modhub on PATH)."""


def server_command() -> list[str]:
    """The command that runs the server, from MODHUB_SERVER_COMMAND or PATH."""
    configured = os.environ.get(COMMAND_ENV, "").strip()
    if configured:
        return shlex.split(configured)
    found = shutil.which("modhub")
    if not found:
        raise ServerNotFound(
            f"modhub_client.testing needs the modhub server: install it (pip install modhub) or set "
            f"{COMMAND_ENV} to its command, e.g. {COMMAND_ENV}=/path/to/venv/bin/modhub"
        )
    return [found]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class EmbeddedServer:
    """`modhub run` in a temporary data folder; `base_url`, `app_id`, `api_key`, `secret_key` and the
    site user `demo`'s `demo_password` once started.

    `env` adds environment variables (e.g. {"MODHUB_DEFAULT_PER_MINUTE": "1000"}); the caller's
    own MODHUB_* variables are not passed on, so a test never reaches a configured database.
    With MODHUB_REDIS_URL among them (a server on PostgreSQL and Redis), a `modhub worker` runs
    beside the server: with Redis, webhooks are delivered by workers, not by the server.
    """

    def __init__(
        self,
        *,
        env: dict[str, str] | None = None,
        start_timeout: float = 120.0,
        folder: str | os.PathLike[str] | None = None,
    ):
        self.command = server_command()
        self.extra_env = dict(env or {})
        self.start_timeout = start_timeout
        self._own_folder = folder is None
        self.folder = Path(folder) if folder is not None else Path(tempfile.mkdtemp(prefix="modhub-server-"))
        self.port = _free_port()
        self.base_url = f"http://127.0.0.1:{self.port}"
        self.api_key = ""
        self.secret_key = ""
        self.app_id = 0
        self.demo_password = ""
        self.output: list[str] = []
        self._proc: subprocess.Popen[str] | None = None
        self._worker: subprocess.Popen[bytes] | None = None

    @property
    def env(self) -> dict[str, str]:
        """The environment of the server and of its CLI commands."""
        env = {k: v for k, v in os.environ.items() if not k.startswith("MODHUB_")}
        env.update({"PYTHONUNBUFFERED": "1", **self.extra_env})
        return env

    def start(self) -> EmbeddedServer:
        """Start the server and wait for its banner."""
        self._proc = subprocess.Popen(
            [*self.command, "run", "--port", str(self.port)],
            cwd=self.folder,
            env=self.env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        ready = threading.Event()
        threading.Thread(target=self._read, args=(ready,), daemon=True).start()
        if not ready.wait(self.start_timeout) or not self.api_key:
            self.stop()
            raise RuntimeError("modhub run did not start:\n" + "\n".join(self.output[-40:]))
        if self.extra_env.get("MODHUB_REDIS_URL"):
            self._worker = subprocess.Popen(
                [*self.command, "worker"],
                cwd=self.folder,
                env=self.env,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        return self

    def _read(self, ready: threading.Event) -> None:
        assert self._proc is not None and self._proc.stdout is not None
        for line in self._proc.stdout:
            self.output.append(line.rstrip("\n"))
            if match := re.search(r"demo app id (\d+)\s+API key (\S+)", line):
                self.app_id, self.api_key = int(match.group(1)), match.group(2)
            elif match := re.search(r"demo site user\s+demo / (\S+)", line):
                self.demo_password = match.group(1)
            elif match := re.search(r"demo secret key\s+(\S+)", line):
                self.secret_key = match.group(1)
            elif line.startswith("=" * 20) and self.secret_key:  # the banner's closing rule
                ready.set()
            del self.output[:-500]
        ready.set()  # the process ended

    def stop(self) -> None:
        """Stop the server and its worker (SIGINT, then kill) and remove its temporary folder."""
        worker, self._worker = self._worker, None
        if worker is not None and worker.poll() is None:
            worker.send_signal(signal.SIGINT)
            try:
                worker.wait(timeout=20)
            except subprocess.TimeoutExpired:
                worker.kill()
                worker.wait()
        proc, self._proc = self._proc, None
        if proc is not None and proc.poll() is None:
            proc.send_signal(signal.SIGINT)
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        if proc is not None and proc.stdout is not None:
            proc.stdout.close()
        if self._own_folder:
            shutil.rmtree(self.folder, ignore_errors=True)

    def __enter__(self) -> EmbeddedServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def cli(self, *args: str) -> str:
        """Run a `modhub` command against this server's data folder; answers its standard output."""
        done = subprocess.run(
            [*self.command, *args], cwd=self.folder, env=self.env, capture_output=True, text=True, timeout=120
        )
        if done.returncode != 0:
            raise RuntimeError(f"modhub {' '.join(args)} failed ({done.returncode}): {done.stderr[-2000:]}")
        return done.stdout

    def create_app(self, name: str, *args: str) -> dict[str, Any]:
        """A new approved application (`modhub app create`): appId, apiKey, secretKey."""
        out = self.cli("app", "create", "--name", name, "--approve", *args)
        created: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
        return created

    def client(self, api_key: str | None = None, secret_key: str | None = None, **kwargs: Any) -> Client:
        """A Client for this server (the demo application's credentials by default)."""
        return Client(self.base_url, api_key or self.api_key, secret_key or self.secret_key, **kwargs)

    def wait_until_served(self, timeout: float = 5.0) -> None:
        """Wait until the server answers the anonymous contract document."""
        import httpx

        deadline = time.monotonic() + timeout
        while True:
            try:
                url = self.base_url + "/openapi/v2/meta/install-signing-key"
                if httpx.get(url, timeout=2).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("the server does not answer")
            time.sleep(0.1)


def proxy(user_id: int, token: str | None = None) -> ProxyUser:
    """Shorthand for a ProxyUser."""
    return ProxyUser(user_id, token)


try:  # the fixture when pytest is there; the package itself does not need pytest
    import pytest

    @pytest.fixture(scope="session")
    def modhub_server_env() -> dict[str, str]:
        """Extra environment of the server (override it, e.g. {"MODHUB_DEFAULT_PER_MINUTE": "1000"})."""
        return {}

    @pytest.fixture(scope="session")
    def modhub_server(modhub_server_env: dict[str, str]) -> Iterator[EmbeddedServer]:
        """One embedded modhub server for the test session."""
        with EmbeddedServer(env=modhub_server_env) as server:
            yield server
except ImportError:  # pragma: no cover
    pass
