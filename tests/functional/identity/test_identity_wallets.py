"""Wallet balances and adjustments, activity collection and carousel placements over HTTP."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest

from models.catalog.tables import ServerPost
from models.identity import wallets
from models.identity.tables import CarouselPlacement, ProviderAccount, WalletLedger
from modhub.core.display import format_time
from tests.helpers.identity import code_of

COLLECT = "/openapi/v2/provider/activity/collect"
CAROUSEL = "/openapi/v2/provider/activity/carousel"


def wallet(user_id, currency, op):
    return f"/openapi/v2/proxy-user/{user_id}/wallet/{currency}/{op}"


def points(user_id, op=""):
    return f"/openapi/v2/proxy-user/{user_id}/points" + (f"/{op}" if op else "")


def adjust(signed, proxy, currency, amount, direction="ADD", reason="test"):
    return signed.post(
        wallet(proxy.user_id, currency, "adjust"),
        headers=proxy.headers,
        json={"amount": amount, "direction": direction, "reason": reason},
    )


def test_a_new_wallet_is_empty(signed, proxy):
    for currency in ("GOLD_COIN", "POINTS", "CASH"):
        data = signed.get(wallet(proxy.user_id, currency, "balance"), headers=proxy.headers).json()["data"]
        assert data == {"balance": 0, "frozenBalance": 0, "availableBalance": 0, "currencyCode": currency}


def test_add_and_deduct_with_a_ledger_row_each(signed, proxy, db):
    first = adjust(signed, proxy, "GOLD_COIN", 10.5)
    assert first.status_code == 200, first.text
    assert first.json()["data"]["newBalance"] == 10.5 and first.json()["data"]["currencyCode"] == "GOLD_COIN"
    second = adjust(signed, proxy, "GOLD_COIN", 0.25, "DEDUCT", "shop").json()["data"]
    assert second["newBalance"] == 10.25
    balance = signed.get(wallet(proxy.user_id, "GOLD_COIN", "balance"), headers=proxy.headers).json()["data"]
    assert balance["balance"] == 10.25 and balance["availableBalance"] == 10.25
    with db.session() as session:
        rows = session.query(WalletLedger).filter_by(user_id=proxy.user_id).order_by(WalletLedger.id).all()
    assert [(r.amount, r.balance_after, r.reason) for r in rows] == [
        (Decimal("10.5"), Decimal("10.5"), "test"),
        (Decimal("-0.25"), Decimal("10.25"), "shop"),
    ]
    assert rows[1].id == second["recordId"]


def test_currencies_are_separate_and_points_alias_the_points_wallet(signed, proxy):
    adjust(signed, proxy, "POINTS", 7)
    adjust(signed, proxy, "CASH", 3)
    data = signed.get(points(proxy.user_id), headers=proxy.headers).json()["data"]
    assert data["balance"] == 7 and data["currencyCode"] == "POINTS"
    added = signed.post(
        points(proxy.user_id, "adjust"),
        headers=proxy.headers,
        json={"amount": 1, "direction": "ADD", "reason": "bonus"},
    ).json()["data"]
    assert added["newBalance"] == 8 and added["currencyCode"] == "POINTS"


def test_deduct_beyond_the_balance_is_refused_and_changes_nothing(signed, proxy):
    adjust(signed, proxy, "POINTS", 5)
    response = adjust(signed, proxy, "POINTS", 5.0001, "DEDUCT")
    assert response.status_code == 409 and code_of(response) == 200409
    assert signed.get(points(proxy.user_id), headers=proxy.headers).json()["data"]["balance"] == 5
    assert adjust(signed, proxy, "CASH", 1, "DEDUCT").status_code == 409


@pytest.mark.parametrize("amount", [0, -1, 0.00001, 1e13, "7"])
def test_invalid_amounts(signed, proxy, amount):
    response = adjust(signed, proxy, "POINTS", amount)
    assert response.status_code == 400 and code_of(response) == 200301


def test_balance_ceiling(signed, proxy, db, clock):
    with db.session() as session:
        wallets.change(
            session,
            user_id=proxy.user_id,
            currency="POINTS",
            delta=wallets.MAX_BALANCE,
            reason="seed",
            app_id=None,
            now=clock(),
        )
        session.commit()
    response = adjust(signed, proxy, "POINTS", 0.0001)
    assert response.status_code == 409 and "exceed" in response.json()["msg"]
    assert code_of(adjust(signed, proxy, "POINTS", 1, "DEDUCT")) == 0


def test_path_user_must_be_the_token_user(signed, proxy, make_user):
    other = make_user()
    for response in (
        signed.get(wallet(other, "POINTS", "balance"), headers=proxy.headers),
        signed.get(points(other), headers=proxy.headers),
        signed.post(
            wallet(other, "POINTS", "adjust"),
            headers=proxy.headers,
            json={"amount": 1, "direction": "ADD", "reason": "x"},
        ),
    ):
        assert response.status_code == 403 and code_of(response) == 200214


def test_wallet_operations_need_a_token_and_a_known_currency(signed, proxy):
    plain = signed.get(points(proxy.user_id), headers={"X-Proxy-User-Id": str(proxy.user_id)})
    assert code_of(plain) == 200210
    bad = signed.get(wallet(proxy.user_id, "BITCOIN", "balance"), headers=proxy.headers)
    assert bad.status_code == 400 and code_of(bad) == 200301


def collect(signed, proxy, **body):
    return signed.post(
        COLLECT,
        headers=proxy.headers,
        json={"requestId": "r-1", "activityCode": "spring", "amount": 3, **body},
    )


def test_collect_moves_points_once_per_request_id(signed, proxy, creds, db):
    adjust(signed, proxy, "POINTS", 10)
    first = collect(signed, proxy)
    assert first.status_code == 200, first.text
    data = first.json()["data"]
    assert data["userBalance"] == 7 and data["providerBalance"] == 3 and data["duplicate"] is False
    replay = collect(signed, proxy).json()["data"]
    assert replay == {**data, "duplicate": True}
    second = collect(signed, proxy, requestId="r-2").json()["data"]
    assert second["userBalance"] == 4 and second["providerBalance"] == 6
    with db.session() as session:
        account = session.query(ProviderAccount).filter_by(app_id=creds.app_id, currency="POINTS").one()
        ledger = session.get(WalletLedger, data["recordId"])
    assert account.balance == 6 and ledger.amount == -3 and ledger.reason == "activity spring"


def test_collect_refuses_a_reused_request_id_with_other_parameters(signed, proxy):
    adjust(signed, proxy, "POINTS", 10)
    collect(signed, proxy)
    response = collect(signed, proxy, amount=4)
    assert response.status_code == 409 and code_of(response) == 200409


def test_collect_beyond_the_balance(signed, proxy):
    adjust(signed, proxy, "POINTS", 2)
    assert code_of(collect(signed, proxy)) == 200409
    assert signed.get(points(proxy.user_id), headers=proxy.headers).json()["data"]["balance"] == 2


def test_collect_in_gold_coins_and_validation(signed, proxy):
    adjust(signed, proxy, "GOLD_COIN", 5)
    data = collect(signed, proxy, currencyCode="GOLD_COIN", reason="entry fee").json()["data"]
    assert data["currencyCode"] == "GOLD_COIN" and data["userBalance"] == 2
    assert code_of(collect(signed, proxy, requestId="bad id!")) == 200301
    assert code_of(collect(signed, proxy, requestId="r-9", currencyCode="CASH")) == 200301


def carousel(signed, proxy, **body):
    return signed.post(
        CAROUSEL,
        headers=proxy.headers,
        json={
            "imageUrl": "https://cdn.example/slide.png",
            "targetUrl": "https://server.example/",
            "title": "Join us",
            **body,
        },
    )


def _server_post(db, user_id) -> int:
    with db.session() as session:
        post = ServerPost(section_code="minecraft", user_id=user_id, main_name="My server")
        session.add(post)
        session.commit()
        return post.id


def test_carousel_placement_active_or_scheduled(signed, proxy, platform, clock, db):
    zone = platform.settings.time_zone
    end = format_time(clock() + dt.timedelta(days=7), zone)
    active = carousel(signed, proxy, endTime=end)
    assert active.status_code == 200, active.text
    data = active.json()["data"]
    assert data["status"] == "ACTIVE" and data["startTime"] == format_time(clock(), zone)
    start = format_time(clock() + dt.timedelta(days=1), zone)
    post = _server_post(db, proxy.user_id)
    later = carousel(signed, proxy, startTime=start, endTime=end, serverPostId=post).json()["data"]
    assert later["status"] == "SCHEDULED" and later["startTime"] == start and later["endTime"] == end
    with db.session() as session:
        assert session.get(CarouselPlacement, later["carouselId"]).server_post_id == post


def test_carousel_validation(signed, proxy, platform, clock, db, make_user):
    zone = platform.settings.time_zone
    end = format_time(clock() + dt.timedelta(days=1), zone)
    past = format_time(clock() - dt.timedelta(days=1), zone)
    cases = [
        ({"endTime": end, "imageFileId": 1}, 200301),  # both image sources
        ({"endTime": end, "imageUrl": None}, 200301),  # neither
        ({"endTime": past}, 200301),
        ({"endTime": end, "startTime": end}, 200301),
        ({"endTime": "tomorrow"}, 200301),
        ({"endTime": end, "targetUrl": "javascript:alert(1)"}, 200301),
        ({"endTime": end, "imageUrl": None, "imageFileId": 7}, 200404),
        ({"endTime": end, "serverPostId": 999999999}, 200404),
        ({"endTime": end, "serverPostId": _server_post(db, make_user())}, 200214),
    ]
    for body, code in cases:
        assert code_of(carousel(signed, proxy, **body)) == code, body
