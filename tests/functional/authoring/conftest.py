"""Fixtures of the authoring tests: a section with its taxonomy, an author acting through a
proxy token, and helpers for the draft operations on both alias paths."""

from __future__ import annotations

import uuid

import pytest

from models.identity.service import token_hash
from models.identity.tables import ProxyToken
from models.types import utcnow
from tests.helpers.authoring import (
    Author,
)


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
