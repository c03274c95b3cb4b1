"""Fixtures of the authoring tests: a section with its taxonomy, an author acting through a
proxy token, and helpers for the draft operations on both alias paths."""

from __future__ import annotations

import uuid
from dataclasses import dataclass

import pytest

from models.catalog.tables import Category, ResourcePost, RunPlatform, Section
from models.identity.service import token_hash
from models.identity.tables import ProxyToken
from models.types import utcnow
from tests.functional.catalog.conftest import data
from tests.functional.site.conftest import browser, shots, site  # noqa: F401
from tests.functional.webhooks.conftest import clock, dispatcher, receiver, rt, subscribe  # noqa: F401

V2 = "/openapi/v2"
# (mods alias, resource alias) of each operation
INIT = (f"{V2}/mods/draft/init", f"{V2}/resource/init-draft")
SAVE = (f"{V2}/mods/draft/{{}}/save", f"{V2}/resource/draft/{{}}/save")
PUBLISH = (f"{V2}/mods/draft/{{}}/publish", f"{V2}/resource/draft/{{}}/publish")
EDIT = (f"{V2}/mods/{{}}/edit", f"{V2}/resource/{{}}/edit")


@dataclass
class Taxonomy:
    """Ids of the test taxonomy."""

    mod_type: int
    tech: int
    magic: int
    other_section_cat: int
    forge: int
    listed_post: int


@pytest.fixture()
def tax(db) -> Taxonomy:
    """Section minecraft (and terraria) with a mod type, categories, a platform, a listed post."""
    with db.session() as s, s.begin():
        s.add_all(
            [
                Section(code="minecraft", description="我的世界"),
                Section(code="terraria", description="泰拉瑞亚"),
            ]
        )
        mod = Category(code="mod", name="模组")
        tech = Category(code="mod-tech", name="科技", parent_code="mod", section_code="minecraft")
        magic = Category(code="mod-magic", name="魔法", parent_code="mod")
        other = Category(code="tr-boss", name="Boss", parent_code="mod", section_code="terraria")
        forge = RunPlatform(code="forge", name="Forge")
        listed = ResourcePost(
            section_code="minecraft",
            main_name="JEI",
            status="PUBLISHED",
            publish_time=utcnow(),
            main_categories=["mod-tech"],
            tags=[],
            display_images=[],
        )
        s.add_all([mod, tech, magic, other, forge, listed])
        s.flush()
        return Taxonomy(mod.id, tech.id, magic.id, other.id, forge.id, listed.id)


@dataclass
class Author:
    """A proxy user and the headers that act for them."""

    user_id: int
    headers: dict


@pytest.fixture()
def make_author(db, creds, make_user):
    """Factory: a user with a proxy token of the test app (scopes: none = unrestricted)."""

    def make(scopes=(), app_id: int | None = None) -> Author:
        user = make_user(username=f"author-{uuid.uuid4().hex[:8]}")
        text = uuid.uuid4().hex + uuid.uuid4().hex
        now = utcnow()
        with db.session() as s, s.begin():
            s.add(
                ProxyToken(
                    token_hash=token_hash(text),
                    app_id=app_id or creds.app_id,
                    user_id=user,
                    scopes=list(scopes),
                    expires_at=now.replace(year=now.year + 1),
                )
            )
        return Author(user, {"X-Proxy-User-Id": str(user), "X-Proxy-Access-Token": text})

    return make


@pytest.fixture()
def author(make_author) -> Author:
    """The author of most tests."""
    return make_author()


def full_body(tax: Taxonomy, **fields) -> dict:
    """A complete save record of a free mod."""
    return {
        "mainName": "机械动力 Create",
        "subName": "Create",
        "sectionCode": "minecraft",
        "resourceTypeId": tax.mod_type,
        "mainCategory": f"{tax.tech},{tax.magic}",
        "runPlatformId": tax.forge,
        "introduction": "齿轮 gears",
        "resourceVersion": "1.0",
        "content": "<p>hello<script>x()</script></p>",
        "mdContent": "hello",
        "clientEnvironment": "REQUIRED",
        "serverEnvironment": "REQUIRED",
        "postTags": ["tech"],
        "updateCommit": "first",
        "relation": {"dependencies": [{"postId": tax.listed_post, "required": True}]},
        "authors": "[]",
        **fields,
    }


def new_draft(signed, author: Author, tax: Taxonomy, alias: int = 0) -> int:
    """A NEW draft made with init; its id."""
    body = {
        "sectionCode": "minecraft",
        "resourceTypeId": tax.mod_type,
        "categoryId": str(tax.tech),
        "title": "机械动力 Create",
    }
    return data(signed.post(INIT[alias], json=body, headers=author.headers))["postId"]
