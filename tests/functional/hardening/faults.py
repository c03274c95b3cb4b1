"""A private PostgreSQL cluster for the fault tests: initdb into a temporary folder, served on a
free loopback port, stopped as in a crash (`pg_ctl stop -m immediate`) and started again. The
shared server on 5432 is never touched."""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import psycopg2

from tests.functional.webhooks.processes import free_port


def _bin(name: str) -> str:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    if not found:
        raise RuntimeError(f"{name} not found under /usr/lib/postgresql/*/bin")
    return found[-1]


class PrivatePostgres:
    """A throw-away cluster owned by the `postgres` system user (initdb refuses to run as root)."""

    def __init__(self):
        self.root = Path(tempfile.mkdtemp(prefix="modhub-pg-"))
        self.data = self.root / "data"
        self.port = free_port()
        self.url = f"postgresql+psycopg2://postgres@127.0.0.1:{self.port}/modhub"
        self._as_postgres = os.geteuid() == 0
        if self._as_postgres:
            entry = pwd.getpwnam("postgres")
            os.chown(self.root, entry.pw_uid, entry.pw_gid)

    def _run(self, *args: str, timeout: float = 60) -> None:
        command = list(args)
        if self._as_postgres:
            command = ["runuser", "-u", "postgres", "--", *command]
        subprocess.run(
            command, check=True, timeout=timeout, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT
        )

    def init(self) -> PrivatePostgres:
        """initdb (trust on loopback), start, and create the `modhub` database."""
        self._run(
            _bin("initdb"), "-D", str(self.data), "-U", "postgres", "--auth=trust", "--no-sync", timeout=120
        )
        self.start()
        conn = psycopg2.connect(host="127.0.0.1", port=self.port, user="postgres", dbname="postgres")
        conn.autocommit = True
        with conn.cursor() as cur:
            cur.execute("CREATE DATABASE modhub")
        conn.close()
        return self

    def start(self) -> None:
        """Start (waits until it accepts connections)."""
        options = (
            f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.root} -c fsync=off "
            "-c full_page_writes=off -c max_connections=50"
        )
        self._run(
            _bin("pg_ctl"),
            "-D",
            str(self.data),
            "-o",
            options,
            "-l",
            str(self.root / "server.log"),
            "-w",
            "-t",
            "60",
            "start",
            timeout=90,
        )

    def crash(self) -> None:
        """Stop at once, as a crash: no checkpoint, clients cut off."""
        self._run(_bin("pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop")

    def wait_ready(self, timeout: float = 30) -> None:
        """Until a connection succeeds (bounded)."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                psycopg2.connect(
                    host="127.0.0.1", port=self.port, user="postgres", dbname="modhub", connect_timeout=2
                ).close()
                return
            except psycopg2.OperationalError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)  # polling a starting server process

    def destroy(self) -> None:
        """Stop if running and remove the folder."""
        if (self.data / "postmaster.pid").exists():
            try:
                self.crash()
            except subprocess.CalledProcessError:
                pass  # already stopped
        shutil.rmtree(self.root, ignore_errors=True)
