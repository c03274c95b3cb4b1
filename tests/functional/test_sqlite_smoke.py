"""The embedded default: SQLite, no Redis, the demo app, a real signed request."""

import pytest

from modhub import demo
from modhub.app import build_platform, create_app
from tests.support import Creds, SignedClient

pytestmark = [pytest.mark.sqlite, pytest.mark.slow]


def test_embedded_mode_serves_signed_requests(embedded_settings, checker):
    platform = build_platform(embedded_settings)
    info = demo.ensure_demo_app(platform)
    assert demo.ensure_demo_app(platform)["secretKey"] == info["secretKey"]  # stable across starts
    app = create_app(embedded_settings, db=platform.db, quota=platform.quota)
    creds = Creds(info["appId"], info["apiKey"], info["secretKey"])
    with app.test_client() as c:
        signed = SignedClient(c, creds, checker)
        ok = signed.get("/openapi/v1/user/profile", headers={"X-Proxy-User-Id": str(info["demoUserId"])})
        assert ok.status_code == 200 and ok.json()["data"]["loginName"] == "demo"
        assert ok.headers["X-RateLimit-Limit"] == "100"
        assert signed.get("/openapi/v2/mods/999999").json()["code"] == 200404
        assert c.get("/openapi/v2/games").json()["code"] == 200201
