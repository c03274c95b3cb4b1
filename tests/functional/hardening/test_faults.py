"""Faults with real processes (issue 15, item 6): uvicorn server processes over PostgreSQL and a
Redis of the test's own.

- SIGKILL of one of two API processes during signed wallet writes (each with an Idempotency-Key,
  retried on the other process when the connection breaks): no 5xx, every write applied exactly
  once, the survivor serves on.
- Redis killed and restarted on the same port: 503 / 200503 while it is down (never 500), then
  reads and signed writes work again in the same server process.
- PostgreSQL (a private cluster, `pg_ctl stop -m immediate`) crashed and restarted: 503 / 200503
  while it is down, then the same server process answers again; writes that answered 200 are all
  in the ledger, and the ones refused with 503 applied once when retried with their key.
"""

from __future__ import annotations

import os
import signal
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from decimal import Decimal

import pytest
import requests
from sqlalchemy import func, select

from models.identity import applications, tokens
from models.identity.tables import User, Wallet, WalletLedger
from models.types import utcnow
from modhub.core.crypto import SecretBox
from modhub.db import Database
from modhub.migrate import upgrade
from tests.functional.hardening.faults import PrivatePostgres
from tests.functional.identity.live import scratch_database, serve_processes
from tests.functional.webhooks.processes import RedisServer
from tests.support import Creds

pytestmark = pytest.mark.slow  # live servers, processes or migrations

READ = "/openapi/v2/games"


def _seed(url: str, key: str) -> tuple[Creds, int, str]:
    db = Database.from_url(url)
    try:
        with db.session() as session, session.begin():
            creds = applications.create(
                session,
                SecretBox(key),
                name="faults",
                approve=True,
                permissions=["user:proxy"],
                per_minute=10**6,
                per_day=10**8,
            )
            user = User(username=f"faults-{uuid.uuid4().hex[:6]}")
            session.add(user)
            session.flush()
            text, _ = tokens.issue_token(
                session, app_id=creds.app_id, user_id=user.id, scopes=[], source="OAUTH", now=utcnow()
            )
        return Creds(creds.app_id, creds.api_key, creds.secret_key), user.id, text
    finally:
        db.engine.dispose()


def _ledger(url: str, user_id: int) -> tuple[Decimal, int]:
    db = Database.from_url(url)
    try:
        with db.session() as session:
            balance = session.scalar(
                select(Wallet.balance).where(Wallet.user_id == user_id, Wallet.currency == "POINTS")
            )
            rows = session.scalar(
                select(func.count()).select_from(WalletLedger).where(WalletLedger.user_id == user_id)
            )
        return Decimal(balance or 0), rows
    finally:
        db.engine.dispose()


class Client:
    """Signed requests over real HTTP; records every status seen (a 5xx other than 503 fails)."""

    def __init__(self, creds: Creds, user_id: int, token: str):
        self.creds, self.user_id, self.token = creds, user_id, token
        self.seen: list[tuple[int, int | None]] = []
        self.lock = threading.Lock()

    def _record(self, response: requests.Response) -> requests.Response:
        code = response.json().get("code") if response.content else None
        with self.lock:
            self.seen.append((response.status_code, code))
        return response

    def read(self, base: str) -> requests.Response:
        return self._record(requests.get(base + READ, headers=self.creds.headers("GET", READ), timeout=30))

    def add(self, base: str, key: str, amount: int = 1) -> requests.Response:
        path = f"/openapi/v2/proxy-user/{self.user_id}/wallet/POINTS/adjust"
        headers = {
            **self.creds.headers("POST", path),
            "X-Proxy-Access-Token": self.token,
            "Idempotency-Key": key,
        }
        return self._record(
            requests.post(
                base + path,
                headers=headers,
                timeout=30,
                json={"amount": amount, "direction": "ADD", "reason": f"fault test {key}"},
            )
        )

    def server_errors(self) -> list[tuple[int, int | None]]:
        """Any 5xx except the documented 503 / 200503."""
        return [s for s in self.seen if s[0] >= 500 and s != (503, 200503)]


def _until(predicate, timeout: float, what: str):
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} not reached within {timeout} s")
        time.sleep(0.2)  # waiting on other processes: no clock to inject


def test_sigkill_of_one_of_two_api_processes_loses_nothing(tmp_path, settings):
    redis_server = RedisServer(tmp_path).start()
    writes, killed_at = 120, 40
    try:
        with scratch_database("faults_kill") as url:
            creds, user_id, token = _seed(url, settings.encryption_key)
            client = Client(creds, user_id, token)
            env = {
                "MODHUB_DATABASE_URL": url,
                "MODHUB_REDIS_URL": redis_server.url,
                "MODHUB_ENCRYPTION_KEY": settings.encryption_key,
                "MODHUB_DATA_DIR": str(tmp_path),
            }
            procs: list = []
            with serve_processes(2, env, procs) as bases:
                started = threading.Event()

                def write(i: int) -> int:
                    key = f"kill-{i}"
                    if i == killed_at:
                        os.kill(procs[0].pid, signal.SIGKILL)  # while other writes are in flight
                        started.set()
                    order = [bases[i % 2], bases[(i + 1) % 2]]
                    for attempt in range(6):  # a load balancer's retry: same key, fresh signature
                        try:
                            response = client.add(order[attempt % 2], key)
                        except requests.ConnectionError:
                            continue
                        if response.status_code == 200:
                            return response.json()["code"]
                    raise AssertionError(f"write {i} never succeeded")

                with ThreadPoolExecutor(8) as pool:
                    codes = list(pool.map(write, range(writes)))
                assert started.is_set() and procs[0].poll() == -signal.SIGKILL
                assert codes == [0] * writes
                assert client.read(bases[1]).status_code == 200  # the survivor serves on
            balance, rows = _ledger(url, user_id)
    finally:
        redis_server.stop()
    assert client.server_errors() == []
    assert (balance, rows) == (Decimal(writes), writes)  # each write applied exactly once


def test_redis_restart_answers_503_then_recovers_without_a_server_restart(tmp_path, settings):
    redis_server = RedisServer(tmp_path).start()
    try:
        with scratch_database("faults_redis") as url:
            creds, user_id, token = _seed(url, settings.encryption_key)
            client = Client(creds, user_id, token)
            env = {
                "MODHUB_DATABASE_URL": url,
                "MODHUB_REDIS_URL": redis_server.url,
                "MODHUB_ENCRYPTION_KEY": settings.encryption_key,
                "MODHUB_DATA_DIR": str(tmp_path),
            }
            procs: list = []
            with serve_processes(1, env, procs) as (base,):
                assert client.read(base).status_code == 200
                assert client.add(base, "before").json()["code"] == 0
                redis_server.stop()
                down = [client.read(base), client.add(base, "during")]
                assert [(r.status_code, r.json()["code"]) for r in down] == [(503, 200503)] * 2
                assert "Retry-After" in down[0].headers or down[0].json()["msg"]
                redis_server.start()  # same port, empty
                _until(lambda: client.read(base).status_code == 200, 15, "reads after Redis is back")
                assert client.add(base, "during").json()["code"] == 0  # the refused write, retried
                assert client.add(base, "after").json()["code"] == 0
                assert procs[0].poll() is None  # the same server process throughout
            balance, rows = _ledger(url, user_id)
    finally:
        redis_server.stop()
    assert client.server_errors() == []
    assert (balance, rows) == (Decimal(3), 3)


def test_postgres_restart_answers_503_then_recovers_without_a_server_restart(tmp_path, settings):
    pg = PrivatePostgres().init()
    redis_server = RedisServer(tmp_path).start()
    try:
        upgrade(pg.url)
        creds, user_id, token = _seed(pg.url, settings.encryption_key)
        client = Client(creds, user_id, token)
        env = {
            "MODHUB_DATABASE_URL": pg.url,
            "MODHUB_REDIS_URL": redis_server.url,
            "MODHUB_ENCRYPTION_KEY": settings.encryption_key,
            "MODHUB_DATA_DIR": str(tmp_path),
        }
        procs: list = []
        with serve_processes(1, env, procs) as (base,):
            assert client.add(base, "before").json()["code"] == 0
            pg.crash()
            down = [client.read(base), client.add(base, "during"), client.read(base)]
            assert [(r.status_code, r.json()["code"]) for r in down] == [(503, 200503)] * 3
            pg.start()
            _until(lambda: client.read(base).status_code == 200, 20, "reads after PostgreSQL is back")
            assert client.add(base, "during").json()["code"] == 0  # the refused write, retried
            again = client.add(base, "during")  # a repeat of the key: answered, not applied
            assert again.json()["code"] == 0
            assert client.add(base, "after").json()["code"] == 0
            assert procs[0].poll() is None
        balance, rows = _ledger(pg.url, user_id)
    finally:
        redis_server.stop()
        pg.destroy()
    assert client.server_errors() == []
    assert (balance, rows) == (Decimal(3), 3)
