"""The catalogue reads on the embedded SQLite mode, over a small seeded catalogue."""

import pytest
from sqlalchemy import select

from models.catalog.queries import listed_clause
from models.catalog.tables import ResourceFile, ResourcePost, ServerPost
from modhub import demo
from modhub.app import build_platform, create_app
from modhub.seed import seed_cli
from tests.helpers.catalog import data
from tests.support import Creds, SignedClient

pytestmark = [pytest.mark.sqlite, pytest.mark.slow]


@pytest.fixture()
def embedded(embedded_settings, checker):
    settings = embedded_settings.replace(site_url="https://modhub.example")
    platform = build_platform(settings)
    info = demo.ensure_demo_app(platform)
    assert seed_cli(platform, resources=120)["resource_post"] == 120
    assert seed_cli(platform, resources=120, only_if_empty=True) is None  # `modhub run` restarts
    app = create_app(settings, db=platform.db, quota=platform.quota)
    with platform.db.session() as session:
        pid = session.scalar(select(ResourcePost.id).where(listed_clause()).order_by(ResourcePost.id))
        fid = session.scalar(select(ResourceFile.id).where(ResourceFile.post_id == pid))
        sid = session.scalar(select(ServerPost.id).where(ServerPost.is_delete.is_(False)))
    creds = Creds(info["appId"], info["apiKey"], info["secretKey"])
    with app.test_client() as client:
        yield SignedClient(client, creds, checker), pid, fid, sid


def test_main_catalogue_reads_on_sqlite(embedded):
    signed, pid, fid, sid = embedded
    assert len(data(signed.get("/openapi/v2/games"))) >= 5
    tree = data(signed.get("/openapi/v2/categories/tree"))
    assert any(node["children"] for node in tree) and sum(n["postCount"] for n in tree) > 0
    options = data(signed.get("/openapi/v2/section/minecraft/filter-options"))
    assert options["resourceTypes"] and options["runPlatforms"]
    assert len(data(signed.get("/openapi/v2/mods/featured"))) == 20
    detail = data(signed.get(f"/openapi/v2/resource/{pid}"))
    assert detail["detailUrl"] == f"https://modhub.example/resource/{pid}" and len(detail["stats"]) == 9
    assert data(signed.post("/openapi/v2/mods", json={"postIds": [pid, 10**9]}))[1] is None
    for suffix in ("authors", "comments", "description", "rating", "relations", "versions", "files"):
        data(signed.get(f"/openapi/v2/mods/{pid}/{suffix}"))
    assert data(signed.post("/openapi/v2/files", json={"fileInfoIds": [fid]}))[0]["fileInfoId"] == fid
    assert data(signed.get("/openapi/v2/stats/section/minecraft"))["postCount"] > 0
    assert data(signed.get(f"/openapi/v2/stats/mods/{pid}"))["postId"] == pid
    assert data(signed.get("/openapi/v1/tags?sectionCode=minecraft"))[0]["postCount"] > 0
    assert data(signed.get("/openapi/v1/post/query?keyword=a"))["total"] > 0
    assert data(signed.get(f"/openapi/v1/server/{sid}/status"))["postId"] == sid
    assert data(signed.get("/openapi/v1/stats/forum"))["totalResourcePosts"] > 0


def test_conditional_get_on_sqlite(embedded):
    signed, pid, _, _ = embedded
    tag = signed.get(f"/openapi/v2/mods/{pid}").headers["ETag"]
    assert signed.get(f"/openapi/v2/resource/{pid}", headers={"If-None-Match": tag}).status_code == 304
