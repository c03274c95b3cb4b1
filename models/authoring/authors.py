"""The authors list of a draft: its JSON text parsed and checked (one user id per entry)."""

from __future__ import annotations

import json
from typing import TypedDict

from models.catalog.tables import AUTHOR_ROLES
from modhub.core.errors import ApiError


class AuthorEntry(TypedDict):
    """One entry of a draft's authors."""

    userId: int
    role: str  # one of AUTHOR_ROLES


def parse_authors(raw: str | None) -> list[AuthorEntry]:
    """The authors JSON as [{userId, role}]; AUTHORS_INVALID when malformed."""
    if raw is None or not raw.strip():
        return []
    try:
        items = json.loads(raw)
    except ValueError as exc:
        raise ApiError("AUTHORS_INVALID", f"authors is not JSON: {exc}") from exc
    if not isinstance(items, list) or len(items) > 50:
        raise ApiError("AUTHORS_INVALID", "authors must be a JSON array (at most 50)")
    out: list[AuthorEntry] = []
    for item in items:
        uid = item.get("userId") if isinstance(item, dict) else None
        role = (item.get("role") or "CONTRIBUTOR") if isinstance(item, dict) else None
        if not isinstance(uid, int) or isinstance(uid, bool) or role not in AUTHOR_ROLES:
            raise ApiError(
                "AUTHORS_INVALID",
                "each author is {userId: integer, role: OWNER | COLLABORATOR | CONTRIBUTOR}",
            )
        out.append({"userId": uid, "role": role})
    if len({a["userId"] for a in out}) != len(out):
        raise ApiError("AUTHORS_INVALID", "an author is listed twice")
    return out
