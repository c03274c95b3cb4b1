"""Fixtures of the authoring tests: a section with its taxonomy, an author acting through a
proxy token, and helpers for the draft operations on both alias paths."""

from __future__ import annotations

import uuid

import pytest

from models.catalog.tables import Category, ResourcePost, RunPlatform, Section
from models.identity.service import token_hash
from models.identity.tables import ProxyToken
from models.types import utcnow
from tests.helpers.authoring import (
    Author,
    Taxonomy,
)


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
