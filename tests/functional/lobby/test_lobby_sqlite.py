"""The lobby flow on the embedded SQLite mode with the disk storage."""

import datetime as dt
import hashlib
import os

import pytest

from models.catalog.tables import Section
from models.identity.tokens import issue_token
from models.lobby.sweep import sweep
from modhub import demo
from modhub.app import build_platform, create_app
from tests.helpers.catalog import data
from tests.helpers.lobby import BASE, Lobby, fetch, item, post_body
from tests.support import Creds, SignedClient

pytestmark = pytest.mark.sqlite


def test_reserve_upload_publish_manifest_close_sweep_on_sqlite(embedded_settings, checker):
    platform = build_platform(embedded_settings)
    info = demo.ensure_demo_app(platform)
    with platform.db.session() as session:
        session.add(Section(code="minecraft", description="Minecraft"))
        token, _ = issue_token(
            session,
            app_id=info["appId"],
            user_id=info["demoUserId"],
            scopes=[],
            source="test",
            now=dt.datetime.now(dt.UTC),
        )
        session.commit()
    app = create_app(embedded_settings, db=platform.db, quota=platform.quota)
    content = os.urandom(123_457)
    sha = hashlib.sha256(content).hexdigest()
    with app.test_client() as client:
        owner = Lobby(
            SignedClient(client, Creds(info["appId"], info["apiKey"], info["secretKey"]), checker),
            info["demoUserId"],
            token,
        )
        r = data(owner.reserve(0, [item(content)]))["results"][0]
        assert r["status"] == "NEED_UPLOAD"
        assert data(owner.upload(0, r["reservedResourceId"], r["uploadToken"], content))["sha256"] == sha
        assert data(owner.reserve(0, [item(content)]))["results"][0]["status"] == "REUSE"
        post_id = data(
            owner.publish(
                post_body(
                    resources=[{"source": "USER_UPLOAD", "sha256": sha, "clientInstallPath": "mods/a.jar"}]
                )
            )
        )
        m = data(client.get(f"{BASE}/{post_id}/manifest"))
        assert [i["sha256"] for i in m["items"]] == [sha]
        assert hashlib.sha256(fetch(client, m["items"][0]["downloadUrl"])).hexdigest() == sha
        assert data(owner.post(f"/{post_id}/close")) is True
        later = dt.datetime.now(dt.UTC) + dt.timedelta(days=1)
        # the second reservation (REUSE, staged) still references the bytes
        assert sweep(platform.db, platform.storage, now=later, grace=dt.timedelta(0)).contents == 0
        assert platform.storage.size(sha) == len(content)
