"""Draft to published and through an edit on the embedded SQLite mode, moderated with the
`modhub moderate` command: real commits, so the sync feed's cursor sees each new version."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from models.catalog.tables import Category, ResourcePost, Section
from models.identity import tokens
from models.identity.tables import User
from models.types import utcnow
from modhub import demo
from modhub.app import build_platform, create_app
from modhub.cli.main import main
from tests.helpers.authoring import EDIT, INIT, PUBLISH, SAVE, V2
from tests.helpers.catalog import data, error_code
from tests.support import Creds, SignedClient

pytestmark = pytest.mark.sqlite


@pytest.fixture()
def embedded(embedded_settings, checker, monkeypatch):
    platform = build_platform(embedded_settings)
    info = demo.ensure_demo_app(platform)
    with platform.db.session() as s, s.begin():
        s.add(Section(code="minecraft", description="我的世界"))
        mod = Category(code="mod", name="模组")
        tech = Category(code="mod-tech", name="科技", parent_code="mod")
        author, moderator = User(username="作者 author"), User(username="mod")
        s.add_all([mod, tech, author, moderator])
        s.flush()
        token, _ = tokens.issue_token(
            s, app_id=info["appId"], user_id=author.id, scopes=["post:write"], source="OAUTH", now=utcnow()
        )
        ids = {"type": mod.id, "tech": tech.id, "author": author.id, "moderator": moderator.id}
    headers = {"X-Proxy-User-Id": str(ids["author"]), "X-Proxy-Access-Token": token}
    for name in ("REDIS_URL", "ENCRYPTION_KEY", "PRODUCTION"):
        monkeypatch.delenv(f"MODHUB_{name}", raising=False)
    monkeypatch.setenv("MODHUB_DATA_DIR", str(embedded_settings.data_dir))
    monkeypatch.setenv("MODHUB_DATABASE_URL", embedded_settings.database_url)
    app = create_app(embedded_settings, db=platform.db, quota=platform.quota)
    with app.test_client() as client:
        yield (
            SignedClient(client, Creds(info["appId"], info["apiKey"], info["secretKey"]), checker),
            headers,
            ids,
            platform,
        )


def cli(*args, ok=True):
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    assert (result.exit_code == 0) is ok, result.output
    return result


def test_draft_review_publish_and_edit_on_sqlite_with_the_cli(embedded):
    signed, h, ids, platform = embedded
    draft = data(
        signed.post(
            INIT[1],
            json={
                "sectionCode": "minecraft",
                "resourceTypeId": ids["type"],
                "categoryId": str(ids["tech"]),
                "title": "红石 Redstone",
            },
            headers=h,
        )
    )["postId"]
    saved = signed.post(SAVE[0].format(draft), json={"introduction": "简介"}, headers=h)
    assert data(saved) == {"postId": draft}
    assert data(signed.post(PUBLISH[1].format(draft), json={}, headers=h)) is True
    assert error_code(signed.post(PUBLISH[0].format(draft), json={}, headers=h), 409) == 200701
    cursor = data(signed.get(f"{V2}/mods/sync"))["nextCursor"]

    cli("admin", "user", "role", str(ids["moderator"]), "moderator")
    queue = json.loads(cli("moderate", "list").stdout)
    assert [(q["draftId"], q["kind"], q["title"]) for q in queue] == [(draft, "NEW", "红石 Redstone")]
    shown = json.loads(cli("moderate", "show", str(draft)).stdout)
    assert {"field": "main_name", "published": None, "proposed": "红石 Redstone"} in shown["changes"]
    assert (
        "no moderator role"
        in cli("moderate", "approve", str(draft), "--by", str(ids["author"]), ok=False).output
    )
    assert "needs a reason" in cli("moderate", "reject", str(draft), "--reason", " ", ok=False).output
    cli(
        "moderate",
        "reject",
        str(draft),
        "--reason",
        "简介太短 intro too short",
        "--by",
        str(ids["moderator"]),
    )
    assert (
        json.loads(cli("moderate", "list", "--state", "REJECTED").stdout)[0]["rejectReason"]
        == "简介太短 intro too short"
    )
    assert "REJECTED" in cli("moderate", "approve", str(draft), ok=False).output
    assert data(signed.post(PUBLISH[0].format(draft), json={"introduction": "更长的简介"}, headers=h)) is True
    approved = json.loads(cli("moderate", "approve", str(draft), "--by", str(ids["moderator"])).stdout)
    assert approved == {"draftId": draft, "state": "PUBLISHED", "postId": draft, "postVersion": 1}

    feed = data(signed.get(f"{V2}/mods/sync", params={"cursor": cursor}))
    assert [i["postId"] for i in feed["items"]] == [draft]
    cursor = feed["nextCursor"]
    assert (
        data(signed.post(EDIT[1].format(draft), json={"mainName": "红石 2", "postVersion": 1}, headers=h))
        is True
    )
    [edit] = json.loads(cli("moderate", "list").stdout)
    assert (edit["kind"], edit["parentPostId"], edit["baseVersion"]) == ("EDIT", draft, 1)
    diff = json.loads(cli("moderate", "show", str(edit["draftId"])).stdout)["changes"]
    assert diff == [{"field": "main_name", "published": "红石 Redstone", "proposed": "红石 2"}]
    cli("moderate", "approve", str(edit["draftId"]))
    feed = data(signed.get(f"{V2}/resource/sync", params={"cursor": cursor}))
    assert [(i["postId"], i["mainName"]) for i in feed["items"]] == [(draft, "红石 2")]
    assert data(signed.get(f"{V2}/mods/{draft}"))["postVersion"] == 2
    stale = signed.post(EDIT[0].format(draft), json={"mainName": "x", "postVersion": 1}, headers=h)
    assert error_code(stale, 409) == 200702
    with platform.db.session() as s:
        assert s.get(ResourcePost, edit["draftId"]).status == "ARCHIVED"
