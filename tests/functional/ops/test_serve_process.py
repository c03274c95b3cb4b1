"""`modhub serve` as an operator runs it (real processes, real HTTP; issue 30 items 1, 2, 3, 6):
two workers share their metrics, every log line is one JSON object with no secret in it,
SIGTERM turns the server not-ready first and ends it within the grace period, and a database
that accepts connections but never answers is a fast 503 (readiness and API alike)."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time

import pytest
import requests
from cryptography.fernet import Fernet
from prometheus_client.parser import text_string_to_metric_families

from models.identity import applications
from modhub.core.crypto import SecretBox
from modhub.db import Database
from tests.helpers.env import PG_URL, REDIS_URL, RUN_PG_URL
from tests.signing import Creds
from tests.support import migrated_database

pytestmark = pytest.mark.slow  # live servers, processes or migrations


def _free_port() -> int:
    """A port of this suite's own range (18420-18439) that nothing listens on now (xdist workers
    run these tests side by side)."""
    worker = int("0" + "".join(c for c in os.environ.get("PYTEST_XDIST_WORKER", "") if c.isdigit()))
    for offset in range(20):
        port = 18420 + (worker * 7 + offset) % 20
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise AssertionError("no free port in 18420-18439")


def _serve(tmp_path, env: dict, workers: int = 1) -> tuple[subprocess.Popen, str, object]:
    port = _free_port()
    log = (tmp_path / f"serve-{port}.log").open("w+")
    full = {k: v for k, v in os.environ.items() if not k.startswith("MODHUB_")}
    full.update({"MODHUB_DATA_DIR": str(tmp_path / "data"), "MODHUB_ENCRYPTION_KEY": KEY, **env})
    proc = subprocess.Popen(
        [sys.executable, "-m", "modhub.cli", "serve", "--port", str(port), "--workers", str(workers)],
        env=full,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,  # its own process group: _stop ends the workers too
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            if requests.get(base + "/healthz", timeout=1).status_code == 200:
                return proc, base, log
        except requests.ConnectionError:
            time.sleep(0.2)
    _stop(proc)
    raise AssertionError("\n".join(_lines(log)))


def _stop(proc: subprocess.Popen) -> None:
    """Kill the server's whole process group (the supervisor and its spawned workers)."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    proc.wait()


KEY = Fernet.generate_key().decode()


def _lines(log) -> list[str]:
    log.close()  # closing twice is harmless
    with open(log.name) as fh:
        return [line for line in fh.read().splitlines() if line.strip()]


def _samples(body: str) -> dict:
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for f in text_string_to_metric_families(body)
        for s in f.samples
    }


@pytest.fixture()
def served_db():
    url = f"{PG_URL}_serve"
    migrated_database(url, RUN_PG_URL)
    db = Database.from_url(url)
    with db.session() as session:
        # quotas out of the way: these tests are not about them, and the shared Redis may hold
        # another run's counters for the same application id (a fresh database starts at id 1)
        made = applications.create(
            session, SecretBox(KEY), name="ops", approve=True, per_minute=10**6, per_day=10**9
        )
        session.commit()
    db.engine.dispose()
    return url, Creds(made.app_id, made.api_key, made.secret_key)


def test_two_workers_json_logs_shared_metrics_and_drain(tmp_path, served_db):
    url, creds = served_db
    env = {
        "MODHUB_DATABASE_URL": url,
        "MODHUB_REDIS_URL": REDIS_URL,
        "MODHUB_LOG_FORMAT": "json",
        "MODHUB_SHUTDOWN_DRAIN_SECONDS": "1.5",
        "MODHUB_SHUTDOWN_GRACE_SECONDS": "6",
    }
    proc, base, log = _serve(tmp_path, env, workers=2)
    try:
        ready = requests.get(base + "/readyz", timeout=10)
        assert ready.status_code == 200 and ready.json()["failing"] == [], ready.text
        path = "/openapi/v2/mods/featured"
        for _ in range(12):
            assert (
                requests.get(base + path, headers=creds.headers("GET", path), timeout=10).status_code == 200
            )
        samples = _samples(requests.get(base + "/metrics", timeout=10).text)
        # the 12 requests were answered by both workers; any worker's /metrics adds them up
        assert (
            samples[("modhub_http_requests_total", (("operation", "listFeaturedMods"), ("status", "200")))]
            == 12
        )
        assert samples[("modhub_db_pool_size", ())] == 20  # 2 processes x MODHUB_DB_POOL_SIZE 10
        proc.send_signal(signal.SIGTERM)
        started, states = time.monotonic(), []
        while proc.poll() is None and time.monotonic() - started < 10:
            try:
                states.append(requests.get(base + "/readyz", timeout=1).status_code)
            except requests.ConnectionError:
                states.append("closed")
            time.sleep(0.1)
        took = time.monotonic() - started
        assert proc.poll() is not None and took < 6, took
        assert 503 in states and 200 not in states[states.index(503) :], states
    finally:
        _stop(proc)
        log.close()
    lines = _lines(log)
    records = [json.loads(line) for line in lines]  # every line is one JSON object
    assert all({"time", "level", "logger", "traceId", "message"} <= set(r) for r in records)
    access = [r for r in records if r["logger"] == "modhub.access"]
    assert len(access) >= 12
    one = next(r for r in access if r["operation"] == "listFeaturedMods")
    assert one["status"] == 200 and one["appId"] == creds.app_id and one["method"] == "GET"
    assert one["client"] == "127.0.0.1" and one["durationMs"] > 0 and len(one["traceId"]) == 32
    assert {r["message"] for r in records if r["logger"] == "modhub.ops"}  # the drain was logged
    text = "\n".join(lines)
    assert creds.secret_key not in text and KEY not in text
    signature = creds.headers("GET", path)["X-Signature"]
    assert signature not in text and "X-Signature" not in text


def test_hung_database_is_a_fast_503_and_sigterm_still_ends_the_server(tmp_path):
    """A listener that accepts connections and never answers stands for a hung PostgreSQL."""
    hole = socket.socket()
    hole.bind(("127.0.0.1", 0))
    hole.listen(64)
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        hole.settimeout(0.2)
        while not stop.is_set():
            try:
                held.append(hole.accept()[0])
            except OSError:
                continue

    threading.Thread(target=accept, daemon=True).start()
    env = {
        "MODHUB_DATABASE_URL": f"postgresql://modhub@127.0.0.1:{hole.getsockname()[1]}/modhub",
        "MODHUB_REDIS_URL": REDIS_URL,
        "MODHUB_DB_CONNECT_TIMEOUT_SECONDS": "1",
        "MODHUB_SHUTDOWN_GRACE_SECONDS": "3",
    }
    proc, base, log = _serve(tmp_path, env, workers=2)
    try:
        started = time.monotonic()
        ready = requests.get(base + "/readyz", timeout=10)
        assert ready.status_code == 503 and "database" in ready.json()["failing"]
        assert time.monotonic() - started < 3
        headers = Creds(1, "a" * 32, "b" * 32).headers("GET", "/openapi/v2/mods/featured")
        started = time.monotonic()
        r = requests.get(base + "/openapi/v2/mods/featured", headers=headers, timeout=10)
        assert r.status_code == 503 and r.json()["code"] == 200503 and time.monotonic() - started < 4
        pending = threading.Thread(
            target=lambda: requests.get(base + "/openapi/v2/mods/featured", headers=headers, timeout=10),
            daemon=True,
        )
        pending.start()  # in flight, waiting on the database, when SIGTERM comes
        time.sleep(0.2)
        started = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=10)
        assert time.monotonic() - started < 5  # MODHUB_SHUTDOWN_GRACE_SECONDS=3 (+ the supervisor)
    finally:
        stop.set()
        _stop(proc)
        hole.close()
        log.close()
        for c in held:
            c.close()
    lines = _lines(log)
    assert "Traceback" not in "\n".join(lines)
    # the default text format, the same in the supervisor and in both workers: time, level, logger
    assert len({p for line in lines for p in re.findall(r"process \[(\d+)\]", line)}) >= 3
    for line in lines:
        assert TEXT_LINE.match(line), line


TEXT_LINE = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} (DEBUG|INFO|WARNING|ERROR) [\w.]+ ")


class FreezingProxy:
    """A TCP proxy to PostgreSQL that can stop passing bytes on: established connections then
    hang the way they do when the database host stops answering (a SIGSTOPped server)."""

    def __init__(self, target: tuple[str, int]):
        self.target, self.frozen, self.stop = target, threading.Event(), threading.Event()
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(64)
        self.sock.settimeout(0.2)
        self.port = self.sock.getsockname()[1]
        self.conns: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while not self.stop.is_set():
            try:
                client, _ = self.sock.accept()
            except OSError:
                continue
            upstream = socket.create_connection(self.target)
            self.conns += [client, upstream]
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    def _pipe(self, src: socket.socket, dst: socket.socket) -> None:
        while not self.stop.is_set():
            try:
                data = src.recv(65536)
            except OSError:
                return
            if not data:
                return
            while self.frozen.is_set() and not self.stop.is_set():
                time.sleep(0.05)  # held: the other side waits for an answer that never comes
            try:
                dst.sendall(data)
            except OSError:
                return

    def close(self) -> None:
        self.stop.set()
        self.sock.close()
        for c in self.conns:
            c.close()


def test_a_database_that_stops_answering_mid_connection_is_a_503_within_the_statement_limit(
    tmp_path, served_db
):
    from sqlalchemy.engine import make_url

    url, creds = served_db
    parsed = make_url(url)
    proxy = FreezingProxy((parsed.host, parsed.port or 5432))
    env = {
        "MODHUB_DATABASE_URL": parsed.set(port=proxy.port).render_as_string(hide_password=False),
        "MODHUB_REDIS_URL": REDIS_URL,
        "MODHUB_DB_STATEMENT_TIMEOUT_SECONDS": "1",
        "MODHUB_DB_CONNECT_TIMEOUT_SECONDS": "1",
        "MODHUB_READY_TIMEOUT_SECONDS": "1",
        "MODHUB_SHUTDOWN_GRACE_SECONDS": "3",
        "MODHUB_APP_CACHE_SECONDS": "0",  # every request reads the database
        "MODHUB_RECORD_CACHE_SECONDS": "0",
    }
    proc, base, log = _serve(tmp_path, env)
    path = "/openapi/v2/mods/featured"
    try:
        assert requests.get(base + "/readyz", timeout=10).status_code == 200
        assert requests.get(base + path, headers=creds.headers("GET", path), timeout=10).status_code == 200
        proxy.frozen.set()  # the pooled connections stay open; nothing comes back any more
        started = time.monotonic()
        ready = requests.get(base + "/readyz", timeout=10)
        assert ready.status_code == 503 and "database" in ready.json()["failing"]
        assert time.monotonic() - started < 2
        started = time.monotonic()
        r = requests.get(base + path, headers=creds.headers("GET", path), timeout=20)
        assert r.status_code == 503 and r.json()["code"] == 200503
        assert time.monotonic() - started < 6  # statement limit 1 s + 1 s, connect limit 1 s
        proxy.frozen.clear()
        deadline = time.monotonic() + 10  # the broken connections were dropped: it recovers
        while requests.get(base + "/readyz", timeout=10).status_code != 200:
            assert time.monotonic() < deadline
            time.sleep(0.2)
        assert requests.get(base + path, headers=creds.headers("GET", path), timeout=10).status_code == 200
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=10)
    finally:
        _stop(proc)
        proxy.close()
        log.close()
    assert "Traceback" not in "\n".join(_lines(log))


def _get_on(sock: socket.socket) -> bytes:
    """One GET /healthz on an open keep-alive connection; the answer's status line, or b"" when
    the server has closed the connection."""
    sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n")
    answer = b""
    while b"\r\n\r\n" not in answer:
        chunk = sock.recv(4096)
        if not chunk:
            return b""
        answer += chunk
    head, _, rest = answer.partition(b"\r\n\r\n")
    length = int(re.search(rb"(?i)content-length: *(\d+)", head).group(1))
    while len(rest) < length:
        rest += sock.recv(4096)
    return head.split(b"\r\n")[0]


@pytest.mark.parametrize("keep_alive", [None, "1"])
def test_idle_keep_alive_connections_outlive_a_balancers_pool(tmp_path, served_db, keep_alive):
    """An idle connection stays open MODHUB_KEEP_ALIVE_SECONDS (75 by default, not uvicorn's 5):
    a balancer or client that reuses a pooled connection after a few idle seconds must not find
    it closed under it (a reset request, issue 31's hour under load)."""
    url, _ = served_db
    env = {"MODHUB_DATABASE_URL": url}
    if keep_alive:
        env["MODHUB_KEEP_ALIVE_SECONDS"] = keep_alive
    proc, base, log = _serve(tmp_path, env)
    try:
        port = int(base.rsplit(":", 1)[1])
        with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
            assert _get_on(sock) == b"HTTP/1.1 200 OK"
            time.sleep(6 if keep_alive is None else 2)
            if keep_alive is None:
                assert _get_on(sock) == b"HTTP/1.1 200 OK"  # reused after 6 idle seconds
            else:
                assert sock.recv(1) == b""  # the server closed it after 1 idle second
    finally:
        _stop(proc)
        log.close()
