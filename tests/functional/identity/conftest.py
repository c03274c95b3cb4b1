"""Fixtures of the identity tests: an injectable clock, a proxy user with a token, seeded codes."""

from __future__ import annotations

import datetime as dt

import pytest

from models.identity import oauth
from tests.helpers.identity import (
    Proxy,
)
from tests.support import Clock


@pytest.fixture()
def clock(platform):
    """The app's clock, frozen at the real current time and movable by the test."""
    platform.clock = Clock(dt.datetime.now(dt.UTC).replace(microsecond=0))
    return platform.clock


@pytest.fixture()
def proxy(creds, make_user, make_token) -> Proxy:
    """A fresh user with a 24-hour token of the `creds` application."""
    user = make_user()
    return Proxy(user, make_token(creds.app_id, user))


@pytest.fixture()
def make_auth_code(db):
    """Factory: an auth code issued on the consent page (committed in the test transaction)."""

    def make(app_id: int, user_id: int, redirect_uri: str, now: dt.datetime) -> str:
        with db.session() as session:
            code = oauth.create_auth_code(
                session, app_id=app_id, user_id=user_id, redirect_uri=redirect_uri, now=now
            )
            session.commit()
        return code

    return make
