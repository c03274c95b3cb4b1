"""The main delivery path on the embedded SQLite mode over the seeded demo catalogue."""

import hashlib

import pytest
from sqlalchemy import select

from models.catalog.queries import listed_clause
from models.catalog.tables import ResourceFile, ResourcePost
from modhub import demo
from modhub.app import build_platform, create_app
from modhub.seed import seed_cli
from tests.helpers.catalog import data
from tests.helpers.files import file_paths
from tests.support import Creds, SignedClient

pytestmark = pytest.mark.sqlite


def test_a_seeded_file_downloads_and_matches_its_hashes_on_sqlite(embedded_settings, checker):
    platform = build_platform(embedded_settings)
    info = demo.ensure_demo_app(platform)
    seed_cli(platform, resources=30)
    app = create_app(embedded_settings, db=platform.db, quota=platform.quota)
    with platform.db.session() as session:
        pid, fid = session.execute(
            select(ResourceFile.post_id, ResourceFile.id)
            .join(ResourcePost, ResourcePost.id == ResourceFile.post_id)
            .where(
                listed_clause(),
                ResourceFile.storage_type == "DIRECT_UPLOAD",
                ResourceFile.file_status == "NORMAL",
                ResourceFile.is_delete.is_(False),
            )
            .order_by(ResourceFile.id)
        ).first()
    creds = Creds(info["appId"], info["apiKey"], info["secretKey"])
    with app.test_client() as client:
        signed = SignedClient(client, creds, checker)
        detail = data(signed.get(file_paths(pid, fid)[0]))
        assert detail["fingerprint"] == detail["hashes"]["sha256"]
        for path in file_paths(pid, fid, "/download-file"):
            r = signed.get(path)
            assert r.status_code == 200 and len(r.content) == detail["fileSize"]
            assert hashlib.sha256(r.content).hexdigest() == detail["fingerprint"]
            assert hashlib.sha512(r.content).hexdigest() == detail["hashes"]["sha512"]
            assert hashlib.sha1(r.content).hexdigest() == detail["hashes"]["sha1"]
        r = signed.get(file_paths(pid, fid, "/download-file")[1], headers={"Range": "bytes=0-9"})
        assert r.status_code == 206 and r.content == b"modhub dem"
