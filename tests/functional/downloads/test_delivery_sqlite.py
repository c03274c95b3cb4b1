"""The main delivery flow on the embedded SQLite mode over the seeded demo catalogue: a link of
download-auth, signed install-info, counting flushed in-process, reports hiding a resource, and
the operator commands (restore, entitlement grant, key rotation)."""

import hashlib
import json

import pytest
from click.testing import CliRunner
from sqlalchemy import select

from models.catalog.queries import listed_clause
from models.catalog.tables import ResourceFile, ResourcePost
from models.downloads import counting
from models.downloads.script import script_checker
from models.identity.tables import User
from models.identity.tokens import issue_token
from models.types import utcnow
from modhub import demo
from modhub.app import build_platform, create_app
from modhub.cli import main
from modhub.contract import Contract
from modhub.seed import seed_cli
from tests.functional.files.test_signing import _openssl_verify
from tests.helpers.catalog import data, error_code
from tests.helpers.downloads import fetch
from tests.support import Creds, SignedClient

pytestmark = pytest.mark.sqlite


def test_main_delivery_flow_on_sqlite(embedded_settings, checker, monkeypatch, tmp_path):
    # records are not kept here; a CLI change seen by a running server without Redis is
    # tests/functional/catalog/test_record_cache_sqlite.py
    settings = embedded_settings.replace(download_failure_hide_threshold=2, record_cache_seconds=0)
    platform = build_platform(settings)
    info = demo.ensure_demo_app(platform)
    seed_cli(platform, resources=30)
    app = create_app(settings, db=platform.db, quota=platform.quota)
    with platform.db.session() as session:
        pid, fid = session.execute(
            select(ResourceFile.post_id, ResourceFile.id)
            .join(ResourcePost, ResourcePost.id == ResourceFile.post_id)
            .where(
                listed_clause(),
                ResourcePost.is_paid.is_(False),
                ResourcePost.download_permission == "PUBLIC",
                ResourcePost.install_script.is_not(None),
                ResourceFile.storage_type == "DIRECT_UPLOAD",
                ResourceFile.file_status == "NORMAL",
                ResourceFile.is_delete.is_(False),
            )
            .order_by(ResourceFile.id)
        ).first()
        users = list(session.scalars(select(User.id).limit(2)))
        # verified reporters: each user reports with its own proxy token (a named id is no vote)
        tokens = [
            issue_token(session, app_id=info["appId"], user_id=u, scopes=[], source="test", now=utcnow())[0]
            for u in users
        ]
        session.commit()
    creds = Creds(info["appId"], info["apiKey"], info["secretKey"])
    for name, value in (
        ("DATA_DIR", str(settings.data_dir)),
        ("DATABASE_URL", settings.database_url),
        ("ENCRYPTION_KEY", settings.encryption_key),
    ):
        monkeypatch.setenv(f"MODHUB_{name}", value)
    monkeypatch.setenv("MODHUB_REDIS_URL", "")

    def cli(*args):
        result = CliRunner().invoke(main, list(args), catch_exceptions=False)
        assert result.exit_code == 0, result.output
        return result.stdout

    with app.test_client() as client:
        signed = SignedClient(client, creds, checker)
        auth = data(signed.post(f"/openapi/v2/resource/{pid}/download-auth", json={"fileInfoId": fid}))
        body = fetch(client, auth["downloadInfos"][0]["url"]).content
        assert hashlib.sha256(body).hexdigest() == auth["downloadInfos"][0]["sha256"]
        got = data(signed.get(f"/openapi/v2/mods/{pid}/install-info"))
        assert got["files"] and got["files"][0]["downloadUrl"]
        pem = client.get("/openapi/v2/meta/install-signing-key").content
        verified = _openssl_verify(tmp_path, pem, got["scriptSignature"], got["script"].encode())
        assert verified.returncode == 0, verified.stderr  # the demo's script, checked offline
        is_script = script_checker(Contract.load().document)
        with platform.db.session() as session:
            scripted = list(
                session.scalars(
                    select(ResourcePost.id).where(listed_clause(), ResourcePost.install_script.is_not(None))
                )
            )
        assert scripted
        for post_id in scripted:  # every script the server signs on the demo catalogue
            signed_script = data(signed.get(f"/openapi/v2/mods/{post_id}/install-info"))["script"]
            assert is_script(json.loads(signed_script)), signed_script
        assert counting.flush(platform.db, platform.download_counter) == 1
        before = data(signed.get(f"/openapi/v2/mods/{pid}"))["downloadCount"]
        assert before >= 1
        for token in tokens:
            signed.post(
                f"/openapi/v2/mods/{pid}/download-failure",
                headers={"X-Proxy-Access-Token": token},
                json={"fingerprint": "f", "errorType": "TIMEOUT"},
            )
        assert error_code(signed.get(f"/openapi/v2/mods/{pid}"), 404) == 200404
        out = json.loads(cli("admin", "resource", "restore", str(pid), "--note", "ok"))
        assert out == {"postId": pid, "status": "PUBLISHED", "resolvedReports": 1}
        assert data(signed.get(f"/openapi/v2/mods/{pid}"))["postId"] == pid
        assert json.loads(cli("admin", "entitlement", "grant", str(users[0]), str(pid)))["granted"]
        kid = json.loads(cli("keys", "rotate-install-key"))["currentKeyId"]
        assert client.get("/openapi/v2/meta/install-signing-key").headers["X-Install-Key-Id"] == kid
