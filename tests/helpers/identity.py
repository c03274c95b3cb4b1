"""Helpers of the identity tests (imported by their conftest and by any test that needs them)."""

from __future__ import annotations

import datetime as dt
import uuid
from dataclasses import dataclass

from models.identity.service import token_hash
from models.identity.tables import ProxyToken


def add_proxy_token(
    session, app_id: int, user_id: int, *, hours: float = 24, revoked: bool = False, scopes=()
) -> str:
    """A stored proxy token of (app, user), added to the session (the caller commits); its text."""
    text = uuid.uuid4().hex + uuid.uuid4().hex
    now = dt.datetime.now(dt.UTC)
    session.add(
        ProxyToken(
            token_hash=token_hash(text),
            app_id=app_id,
            user_id=user_id,
            scopes=list(scopes),
            expires_at=now + dt.timedelta(hours=hours),
            revoked_at=now if revoked else None,
        )
    )
    return text


@dataclass
class Proxy:
    """A user and a token of the `creds` application acting for them."""

    user_id: int
    token: str

    @property
    def headers(self) -> dict:
        """The proxy headers of a T operation."""
        return {"X-Proxy-User-Id": str(self.user_id), "X-Proxy-Access-Token": self.token}


def code_of(response) -> int:
    """The envelope code of a response."""
    return response.json()["code"]
