"""The embedded mode: search through FTS5 (trigram) and the sync feed on SQLite."""

from __future__ import annotations

import pytest

from models.catalog.tables import ResourcePost
from modhub import demo
from modhub.app import build_platform, create_app
from tests.helpers.search import ids, post_row
from tests.support import Creds, SignedClient

pytestmark = [pytest.mark.sqlite, pytest.mark.slow]


class Embedded:
    """An embedded app over SQLite and a signed client of its demo application."""

    def __init__(self, platform, signed):
        self.platform, self.signed = platform, signed

    def add(self, **fields) -> int:
        with self.platform.db.session() as session, session.begin():
            post = ResourcePost(**post_row(**fields))
            session.add(post)
            session.flush()
            return post.id

    def write(self, post_id: int, **fields) -> None:
        with self.platform.db.session() as session, session.begin():
            post = session.get(ResourcePost, post_id)
            for name, value in fields.items():
                setattr(post, name, value)

    def data(self, path: str, **params) -> dict:
        response = self.signed.get(path, params=params)
        assert response.status_code == 200, response.text
        return response.json()["data"]


@pytest.fixture()
def embedded(embedded_settings, checker):
    settings = embedded_settings
    platform = build_platform(settings)
    info = demo.ensure_demo_app(platform)
    app = create_app(settings, db=platform.db, quota=platform.quota)
    with app.test_client() as client:
        yield Embedded(
            platform, SignedClient(client, Creds(info["appId"], info["apiKey"], info["secretKey"]), checker)
        )
    platform.db.engine.dispose()


def test_sqlite_search_english_chinese_and_short_keywords(embedded):
    mod = embedded.add(
        main_name="OptiFine HD", introduction="faster game", tags=["performance"], download_count=5
    )
    shader = embedded.add(
        main_name="Shaders", introduction="needs optifine", download_count=9, main_categories=["graphics"]
    )
    chinese = embedded.add(main_name="我的世界工业模组", tags=["科技"], section_code="terraria")
    embedded.add(main_name="OptiFine private", visibility="PRIVATE")
    search = "/openapi/v2/mods/search"
    assert ids(embedded.data(search, keyword="optifine")) == [mod, shader]  # title ranks first
    assert ids(embedded.data(search, keyword="OPTIF")) == [mod, shader]
    assert ids(embedded.data(search, keyword="世界工业")) == [chinese]
    assert ids(embedded.data(search, keyword="工业")) == [chinese]  # 2 characters: LIKE fallback
    assert ids(embedded.data(search, keyword="科技")) == [chinese]  # tags, decoded from JSON
    assert ids(embedded.data(search, keyword="faster game")) == [mod]
    assert ids(embedded.data(search, mainCategory="graphics")) == [shader]
    assert ids(
        embedded.data("/openapi/v2/resource/query", sort="downloads", order="asc", sectionCode="minecraft")
    ) == [mod, shader]
    page = embedded.data("/openapi/v1/resource/query", pageNum=1, pageSize=2)
    assert page["total"] == 3 and page["pages"] == 2 and page["hasMore"] is True
    deep = embedded.signed.get(search, params={"pageNum": 201, "pageSize": 50})
    assert deep.status_code == 400 and deep.json()["code"] == 200304


def test_sqlite_search_follows_edits_through_the_fts_triggers(embedded):
    post = embedded.add(main_name="Old title")
    embedded.write(post, main_name="Brand new title")
    search = "/openapi/v2/mods/search"
    assert embedded.data(search, keyword="old title")["total"] == 0
    assert ids(embedded.data(search, keyword="brand new")) == [post]


def test_sqlite_sync_walk_edits_and_deletions(embedded):
    posts = [embedded.add() for _ in range(5)]
    feed = "/openapi/v2/resource/sync"
    first = embedded.data(feed, size=3)
    rest = embedded.data(feed, cursor=first["nextCursor"], size=3)
    assert ids(first) + ids(rest) == posts and rest["hasMore"] is False
    embedded.write(posts[0], main_name="edited")
    embedded.write(posts[1], download_count=50)  # counters only: not a change
    embedded.write(posts[2], is_delete=True)
    later = embedded.data(feed, cursor=rest["nextCursor"])
    assert ids(later) == [posts[0]] and later["deletedPostIds"] == [posts[2]]
    assert later["items"][0]["mainName"] == "edited"
    assert later["items"][0]["updateTime"] >= first["items"][0]["updateTime"]
    bad = embedded.signed.get(feed, params={"cursor": "not-a-cursor"})
    assert bad.status_code == 400 and bad.json()["code"] == 200306


def test_sqlite_search_by_game_version_and_run_platform(embedded):
    from models.catalog.tables import ResourceFile

    forge, pack = embedded.add(run_platform="forge"), embedded.add(run_platform=None)
    with embedded.platform.db.session() as session, session.begin():
        for post_id, loader in ((forge, "forge"), (pack, None)):
            session.add(
                ResourceFile(
                    post_id=post_id,
                    title="main",
                    file_name="a.jar",
                    run_platform=loader,
                    resource_versions=["1.20.1"],
                )
            )
    search = "/openapi/v2/mods/search"
    assert sorted(ids(embedded.data(search, gameVersion="1.20.1"))) == sorted([forge, pack])
    assert ids(embedded.data(search, gameVersion="1.20.1", runPlatform="fabric")) == [pack]
    assert ids(embedded.data(search, gameVersion="1.19")) == []
