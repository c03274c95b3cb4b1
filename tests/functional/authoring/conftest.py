"""Fixtures of the authoring tests: a section with its taxonomy, an author acting through a
proxy token, and helpers for the draft operations on both alias paths."""

from __future__ import annotations

import uuid

import pytest

from tests.helpers.authoring import (
    Author,
)
from tests.helpers.identity import add_proxy_token


@pytest.fixture()
def make_author(db, creds, make_user):
    """Factory: a user with a proxy token of the test app (scopes: none = unrestricted)."""

    def make(scopes=(), app_id: int | None = None) -> Author:
        user = make_user(username=f"author-{uuid.uuid4().hex[:8]}")
        with db.session() as s, s.begin():
            text = add_proxy_token(s, app_id or creds.app_id, user, hours=24 * 365, scopes=scopes)
        return Author(user, {"X-Proxy-User-Id": str(user), "X-Proxy-Access-Token": text})

    return make


@pytest.fixture()
def author(make_author) -> Author:
    """The author of most tests."""
    return make_author()
