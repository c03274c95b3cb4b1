"""Idempotency-Key on wallet adjustments: a retried request applies once, also concurrently."""

from __future__ import annotations

import datetime as dt
import threading
import uuid
from decimal import Decimal

import pytest
from sqlalchemy import select

from models.identity import applications, wallets
from models.identity.tables import User, WalletLedger
from modhub.core.crypto import SecretBox
from modhub.core.errors import ApiError
from modhub.db import Database
from tests.helpers.env import PG_URL, RUN_PG_URL
from tests.helpers.identity import code_of
from tests.support import drop_database, migrated_database

pytestmark = pytest.mark.slow  # live servers, processes or migrations


def adjust(signed, proxy, amount, key=None, direction="ADD"):
    headers = {**proxy.headers, **({"Idempotency-Key": key} if key else {})}
    return signed.post(
        f"/openapi/v2/proxy-user/{proxy.user_id}/wallet/GOLD_COIN/adjust",
        headers=headers,
        json={"amount": amount, "direction": direction, "reason": "r"},
    )


def test_a_retry_with_the_same_key_applies_once(signed, proxy, db):
    first = adjust(signed, proxy, 5, key="order-1").json()["data"]
    again = adjust(signed, proxy, 5, key="order-1").json()["data"]
    other = adjust(signed, proxy, 5, key="order-2").json()["data"]
    assert again == first and other["recordId"] != first["recordId"]
    assert other["newBalance"] == 10
    with db.session() as session:
        rows = session.scalars(select(WalletLedger).where(WalletLedger.user_id == proxy.user_id)).all()
    assert len(rows) == 2


def test_the_same_key_with_other_parameters_is_a_conflict(signed, proxy):
    assert code_of(adjust(signed, proxy, 5, key="k")) == 0
    response = adjust(signed, proxy, 6, key="k")
    assert response.status_code == 409 and code_of(response) == 200409


def test_without_a_key_every_request_applies(signed, proxy):
    adjust(signed, proxy, 1)
    assert adjust(signed, proxy, 1).json()["data"]["newBalance"] == 2


def test_a_malformed_key_is_refused(signed, proxy):
    response = adjust(signed, proxy, 1, key="has space")
    assert response.status_code == 400 and "Idempotency-Key" in response.json()["msg"]


@pytest.fixture()
def committed_db():
    url = PG_URL.rsplit("/", 1)[0] + f"/modhub_test_idem_{uuid.uuid4().hex[:8]}"
    migrated_database(url, RUN_PG_URL)
    database = Database.from_url(url)
    yield database
    database.engine.dispose()
    drop_database(url)


def test_two_simultaneous_requests_with_one_key_change_the_balance_once(committed_db):
    from cryptography.fernet import Fernet

    now = dt.datetime.now(dt.UTC)
    with committed_db.session() as s, s.begin():
        app_id = applications.create(
            s, SecretBox(Fernet.generate_key().decode()), name="a", approve=True
        ).app_id
        user = User(username="idem")
        s.add(user)
        s.flush()
        user_id = user.id
    call = dict(
        app_id=app_id,
        acting_user_id=user_id,
        user_id=user_id,
        currency="POINTS",
        amount="3",
        direction="ADD",
        reason="r",
        now=now,
        idempotency_key="same",
    )
    first = committed_db.session()
    first_result = wallets.adjust(first, **call)  # claimed and applied, not committed yet
    second_result = {}

    def second():
        with committed_db.session() as s, s.begin():
            second_result.update(wallets.adjust(s, **call))  # blocks on the key until `first` ends

    thread = threading.Thread(target=second)
    thread.start()
    thread.join(0.5)
    assert thread.is_alive()  # waiting on the unique key, not applying a second change
    first.commit()
    first.close()
    thread.join(10)
    assert second_result["recordId"] == first_result["recordId"]
    with committed_db.session() as s:
        rows = s.scalars(select(WalletLedger).where(WalletLedger.user_id == user_id)).all()
    assert [r.amount for r in rows] == [Decimal("3")]
    with pytest.raises(ApiError), committed_db.session() as s:
        wallets.adjust(s, **{**call, "amount": "4"})
