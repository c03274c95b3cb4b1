"""Helpers of the search tests (imported by their conftest and by any test that needs them)."""

from __future__ import annotations

import datetime as dt
import itertools
from dataclasses import dataclass

from sqlalchemy import select

from models.catalog.queries import listed_clause
from models.catalog.tables import ResourcePost
from modhub.db import Database
from tests.support import (
    SignedClient,
)

_names = itertools.count(1)


def post_row(**fields) -> dict:
    """Columns of a listed resource post, overridden by fields."""
    n = next(_names)
    now = dt.datetime.now(dt.UTC)
    row = {
        "section_code": "minecraft",
        "main_name": f"Resource {n}",
        "status": "PUBLISHED",
        "visibility": "PUBLIC",
        "resource_type": "mod",
        "run_platform": "forge",
        "main_categories": ["tech"],
        "tags": [],
        "publish_time": now,
        "update_time": now,
    }
    return {**row, **fields}


def ids(page: dict) -> list[int]:
    """Post ids of a PageResult's list (or a sync batch's items)."""
    return [item["postId"] for item in page.get("list", page.get("items", []))]


@dataclass
class LiveCatalogue:
    """A committed database of its own, an app over it and a signed client of an app there."""

    db: Database
    signed: SignedClient

    def write(self, **changes) -> None:
        """Commit changes {post_id: {column: value}} in one transaction."""
        with self.db.session() as session, session.begin():
            for post_id, fields in changes.items():
                post = session.get(ResourcePost, int(post_id))
                for name, value in fields.items():
                    setattr(post, name, value)

    def add(self, count: int, **fields) -> list[int]:
        """Commit `count` new listed posts in one transaction; their ids."""
        with self.db.session() as session, session.begin():
            posts = [ResourcePost(**post_row(**fields)) for _ in range(count)]
            session.add_all(posts)
            session.flush()
            return [p.id for p in posts]

    def live(self) -> dict[int, str]:
        """Listed posts now: id -> mainName."""
        with self.db.session() as session:
            return dict(
                session.execute(select(ResourcePost.id, ResourcePost.main_name).where(listed_clause())).all()
            )
