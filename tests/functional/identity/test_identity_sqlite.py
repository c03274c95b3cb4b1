"""The identity operations in the embedded mode (SQLite, no Redis): conditional updates included."""

from __future__ import annotations

import pytest

from models.identity import applications
from modhub.app import build_platform, create_app
from tests.support import Creds, SignedClient

pytestmark = [pytest.mark.sqlite, pytest.mark.slow]


def test_register_adjust_collect_link_and_sso_on_sqlite(embedded_settings, checker):
    platform = build_platform(embedded_settings)
    with platform.db.session() as session, session.begin():
        made = applications.create(
            session, platform.secrets, name="embedded", approve=True, permissions=["user:proxy"]
        )
    app = create_app(embedded_settings, db=platform.db, quota=platform.quota)
    with app.test_client() as c:
        api = SignedClient(c, Creds(made.app_id, made.api_key, made.secret_key), checker)
        user = api.post("/openapi/v2/proxy-user/register", json={"username": "lite"}).json()["data"]
        headers = {"X-Proxy-Access-Token": user["accessToken"]}
        base = f"/openapi/v2/proxy-user/{user['userId']}/wallet/POINTS"
        added = api.post(
            f"{base}/adjust", headers=headers, json={"amount": 5.5, "direction": "ADD", "reason": "r"}
        ).json()["data"]
        assert added["newBalance"] == 5.5
        refused = api.post(
            f"{base}/adjust", headers=headers, json={"amount": 6, "direction": "DEDUCT", "reason": "r"}
        )
        assert refused.status_code == 409
        collected = api.post(
            "/openapi/v2/provider/activity/collect",
            headers=headers,
            json={"requestId": "a", "activityCode": "x", "amount": 2},
        ).json()["data"]
        assert collected["userBalance"] == 3.5 and collected["providerBalance"] == 2
        assert api.get(f"{base}/balance", headers=headers).json()["data"]["balance"] == 3.5
        linked = api.post("/openapi/v2/user-binding/link", headers=headers, json={"externalUserId": "e"})
        assert linked.json()["data"]["status"] == "ACTIVE"
        assert api.post("/openapi/v2/sso/exchange", headers=headers).json()["data"]["ticket"]
    platform.db.engine.dispose()
