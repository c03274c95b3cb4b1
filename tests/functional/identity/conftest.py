"""Fixtures of the identity tests: an injectable clock, a proxy user with a token, seeded codes."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

import pytest

from models.identity import oauth
from tests.functional.site.conftest import browser, site  # noqa: F401 (Chromium and a live server)
from tests.support import Clock


@pytest.fixture()
def clock(platform):
    """The app's clock, frozen at the real current time and movable by the test."""
    platform.clock = Clock(dt.datetime.now(dt.UTC).replace(microsecond=0))
    return platform.clock


@dataclass
class Proxy:
    """A user and a token of the `creds` application acting for them."""

    user_id: int
    token: str

    @property
    def headers(self) -> dict:
        """The proxy headers of a T operation."""
        return {"X-Proxy-User-Id": str(self.user_id), "X-Proxy-Access-Token": self.token}


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


def code_of(response) -> int:
    """The envelope code of a response."""
    return response.json()["code"]
