"""Quotas through HTTP: headers on every signed response, 429 with Retry-After, shared counting."""

import logging
import time

import pytest

from modhub.app import create_app
from modhub.quota import RedisQuota
from tests.support import SignedClient

pytestmark = pytest.mark.slow  # live servers, processes or migrations

GAMES = "/openapi/v2/games"
RATE_HEADERS = (
    "X-RateLimit-Limit",
    "X-RateLimit-Remaining",
    "X-RateLimit-Reset",
    "X-RateLimit-Daily-Limit",
    "X-RateLimit-Daily-Remaining",
)


def test_rate_headers_on_every_signed_response(signed):
    response = signed.get(GAMES)
    assert all(h in response.headers for h in RATE_HEADERS)
    assert response.headers["X-RateLimit-Limit"] == "100"
    assert response.headers["X-RateLimit-Daily-Limit"] == "10000"
    reset = int(response.headers["X-RateLimit-Reset"])
    assert reset % 60 == 0 and 0 < reset - time.time() <= 60


def test_minute_quota_refuses_with_429(client, make_app):
    signed = SignedClient(client, make_app(per_minute=3))
    remaining = [signed.get(GAMES).headers["X-RateLimit-Remaining"] for _ in range(3)]
    refused = signed.get(GAMES)
    if refused.status_code != 429:  # the minute turned between calls; try once more
        remaining = [signed.get(GAMES).headers["X-RateLimit-Remaining"] for _ in range(2)]
        refused = signed.get(GAMES)
    assert refused.status_code == 429 and refused.json()["code"] == 200101
    assert 1 <= int(refused.headers["Retry-After"]) <= 60
    assert refused.headers["X-RateLimit-Remaining"] == "0"
    assert remaining[-1] == "0"


def test_daily_quota_refuses_with_200102(client, make_app):
    signed = SignedClient(client, make_app(per_day=2))
    assert [signed.get(GAMES).status_code != 429 for _ in range(2)] == [True, True]
    refused = signed.get(GAMES)
    assert refused.status_code == 429 and refused.json()["code"] == 200102
    assert refused.headers["X-RateLimit-Daily-Remaining"] == "0"


def test_two_app_instances_share_one_redis_count(settings, db, contract, redis_client, make_app, quota):
    creds = make_app(per_minute=4)
    apps = [
        create_app(
            settings,
            db=db,
            contract=contract,
            quota=RedisQuota(redis_client.__class__.from_url(settings.redis_url), prefix=quota.prefix),
        )
        for _ in range(2)
    ]
    codes = []
    with apps[0].test_client() as a, apps[1].test_client() as b:
        for i in range(6):
            codes.append(SignedClient((a, b)[i % 2], creds).get(GAMES).status_code)
    assert codes.count(429) >= 2 and sum(c != 429 for c in codes[:4]) >= 3


def test_embedded_mode_warns_that_quota_is_per_process(settings, db, contract, caplog):
    with caplog.at_level(logging.WARNING):
        app = create_app(settings.replace(redis_url=""), db=db, contract=contract)
    assert app.app.extensions["modhub"].quota.shared is False
    assert any("per process" in r.getMessage() for r in caplog.records)
