"""200 simultaneous wallet adjustments over real HTTP and real commits: 4 client processes of 10
threads each, spread over 2 separate server processes sharing one PostgreSQL database. Nothing is
lost and the balance never goes below zero."""

from __future__ import annotations

from decimal import Decimal

import pytest
from sqlalchemy import func, select

from models.identity import applications, tokens
from models.identity.tables import User, Wallet, WalletLedger
from models.identity.wallets import change
from models.types import utcnow
from modhub.app import build_platform
from modhub.db import Database
from tests.burst import burst
from tests.functional.identity.live import scratch_database, serve_processes
from tests.support import Creds

pytestmark = pytest.mark.slow  # live servers, processes or migrations

PROCESSES, THREADS, SERVERS = 4, 10, 2
START = Decimal("20")


def _seed(db: Database, box) -> tuple[Creds, int, str]:
    with db.session() as session, session.begin():
        creds = applications.create(
            session,
            box,
            name="conc",
            permissions=["user:proxy"],
            approve=True,
            per_minute=100_000,
            per_day=1_000_000,
        )
        user = User(username="conc-user")
        session.add(user)
        session.flush()
        text, _ = tokens.issue_token(
            session, app_id=creds.app_id, user_id=user.id, scopes=[], source="OAUTH", now=utcnow()
        )
        change(
            session,
            user_id=user.id,
            currency="POINTS",
            delta=START,
            reason="start",
            app_id=None,
            now=utcnow(),
        )
    return Creds(creds.app_id, creds.api_key, creds.secret_key), user.id, text


def _jobs() -> list[dict]:
    adds = [{"amount": 1, "direction": "ADD", "reason": f"add {i}"} for i in range(100)]
    deducts = [{"amount": 1.5, "direction": "DEDUCT", "reason": f"deduct {i}"} for i in range(100)]
    return [job for pair in zip(adds, deducts, strict=True) for job in pair]


def test_200_simultaneous_adjustments_lose_nothing_and_never_go_negative(settings):
    with scratch_database("conc") as url:
        platform = build_platform(settings.replace(database_url=url, redis_url=""))
        creds, user_id, token = _seed(platform.db, platform.secrets)
        jobs = _jobs()
        # No MODHUB_REDIS_URL: each server counts quotas on its own, touching no shared Redis key.
        env = {
            "MODHUB_DATABASE_URL": url,
            "MODHUB_ENCRYPTION_KEY": settings.encryption_key,
            "MODHUB_REDIS_URL": "",
            "MODHUB_DATA_DIR": str(settings.data_dir),
        }
        path = f"/openapi/v2/proxy-user/{user_id}/wallet/POINTS/adjust"
        with serve_processes(SERVERS, env) as bases:
            statuses = burst(
                bases,
                creds,
                [(path, {"X-Proxy-Access-Token": token}, job) for job in jobs],
                PROCESSES,
                THREADS,
            )
        results = [(job["direction"], status) for job, status in zip(jobs, statuses, strict=True)]
        with platform.db.session() as session:
            balance = session.scalar(select(Wallet.balance).where(Wallet.user_id == user_id))
            rows = session.scalar(
                select(func.count()).select_from(WalletLedger).where(WalletLedger.user_id == user_id)
            )
            total = session.scalar(
                select(func.sum(WalletLedger.amount)).where(WalletLedger.user_id == user_id)
            )
            lowest = session.scalar(
                select(func.min(WalletLedger.balance_after)).where(WalletLedger.user_id == user_id)
            )
        platform.db.engine.dispose()
    assert len(results) == 200 and {status for _, status in results} <= {200, 409}
    added = sum(1 for d, s in results if d == "ADD" and s == 200)
    deducted = sum(1 for d, s in results if d == "DEDUCT" and s == 200)
    assert added == 100  # an addition can never be refused
    assert 0 < 100 - deducted  # 150 to deduct from at most 120: some were refused
    assert balance == START + added - Decimal("1.5") * deducted >= 0
    assert rows == 1 + added + deducted and total == balance and lowest >= 0
