"""Fixtures of the search and sync tests: resource posts written through the models."""

from __future__ import annotations

import uuid
from dataclasses import replace

import pytest
from sqlalchemy.engine import make_url

from models.catalog.tables import ResourceAuthor, ResourcePost
from models.identity import applications
from modhub.app import create_app
from modhub.core.crypto import SecretBox
from modhub.db import Database
from tests.helpers.env import PG_URL, RUN_PG_URL
from tests.helpers.search import (
    LiveCatalogue,
    post_row,
)
from tests.support import (
    Creds,
    SignedClient,
    drop_database,
    migrated_database,
)


@pytest.fixture()
def make_post(db):
    """Factory: a resource post committed in the test transaction; returns its id."""

    def make(authors: tuple[tuple[int, str], ...] = (), **fields) -> int:
        with db.session() as session:
            post = ResourcePost(**post_row(**fields))
            session.add(post)
            session.flush()
            for order, (user_id, role) in enumerate(authors):
                session.add(ResourceAuthor(post_id=post.id, user_id=user_id, role=role, sort_order=order))
            session.commit()
            return post.id

    return make


@pytest.fixture()
def change_post(db):
    """Factory: update columns of a post (committed in the test transaction)."""

    def change(post_id: int, **fields) -> None:
        with db.session() as session:
            post = session.get(ResourcePost, post_id)
            for name, value in fields.items():
                setattr(post, name, value)
            session.commit()

    return change


@pytest.fixture()
def live_catalogue(settings, quota, contract, checker):
    """LiveCatalogue over a fresh database, dropped afterwards (data is really committed)."""
    url = make_url(PG_URL).set(database=f"modhub_test_search_live_{uuid.uuid4().hex[:8]}")
    url = url.render_as_string(hide_password=False)
    migrated_database(url, RUN_PG_URL)
    try:
        database = Database.from_url(url, pool_size=4)
        app = create_app(replace(settings, database_url=url), db=database, quota=quota, contract=contract)
        with database.session() as session, session.begin():
            creds = applications.create(
                session,
                SecretBox(settings.encryption_key),
                name="sync",
                approve=True,
                per_minute=10**6,
                per_day=10**7,
            )
        with app.test_client() as client:
            yield LiveCatalogue(
                database, SignedClient(client, Creds(creds.app_id, creds.api_key, creds.secret_key), checker)
            )
        database.engine.dispose()
    finally:
        drop_database(url)
