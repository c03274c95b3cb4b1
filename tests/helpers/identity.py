"""Helpers of the identity tests (imported by their conftest and by any test that needs them)."""

from __future__ import annotations

from dataclasses import dataclass


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
