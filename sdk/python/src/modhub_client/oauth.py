"""OAuth helpers: the consent URL and reading the redirect back."""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import parse_qs, urlencode, urlsplit


def authorize_url(site_url: str, app_id: int, redirect_uri: str, state: str | None = None) -> str:
    """`{site}/openapi-authorize?app_id=...&redirect_uri=...[&state=...]`: send the user there."""
    query = {"app_id": str(int(app_id)), "redirect_uri": redirect_uri}
    if state is not None:
        query["state"] = state
    return f"{site_url.rstrip('/')}/openapi-authorize?{urlencode(query)}"


@dataclass(frozen=True)
class Redirect:
    """What the consent page sent back to redirect_uri."""

    auth_code: str | None
    state: str | None
    user_id: int | None
    error: str | None


def parse_redirect(url: str, expected_state: str | None = None) -> Redirect:
    """Read auth_code, state, user_id (when the server sends it) or error from the redirect URL;
    a state that differs from the one sent raises ValueError (a forged redirect)."""
    query = parse_qs(urlsplit(url).query)

    def one(name: str) -> str | None:
        values = query.get(name)
        return values[0] if values else None

    state = one("state")
    if expected_state is not None and state != expected_state:
        raise ValueError("the redirect's state is not the one sent")
    user = one("user_id")
    return Redirect(one("auth_code"), state, int(user) if user and user.isdigit() else None, one("error"))
