"""The domain functions that raise catalog events, each in the caller's transaction."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from models.catalog import lifecycle
from models.catalog.tables import ResourcePost, ServerPost
from models.webhooks.tables import OutboxEvent
from modhub.core.errors import ApiError


@pytest.fixture()
def posts(db):
    with db.session() as s, s.begin():
        resource = ResourcePost(section_code="minecraft", main_name="Better Trees", status="PENDING")
        server = ServerPost(section_code="minecraft", main_name="Lobby", server_status="OFFLINE")
        s.add_all([resource, server])
        s.flush()
        return resource.id, server.id


def _events(db) -> list[OutboxEvent]:
    with db.session() as s:
        return list(s.scalars(select(OutboxEvent).order_by(OutboxEvent.id)))


def test_resource_life_cycle_emits_its_events(db, display, posts, dispatcher):
    post_id, _ = posts
    with db.session() as s, s.begin():
        lifecycle.publish_resource(s, post_id=post_id, display=display)
        with pytest.raises(ApiError) as again:
            lifecycle.publish_resource(s, post_id=post_id, display=display)
        assert again.value.entry.name == "CONFLICT"
    with db.session() as s, s.begin():
        lifecycle.update_resource(s, post_id=post_id, display=display, resource_version="2.0")
        with pytest.raises(ApiError):
            lifecycle.update_resource(s, post_id=post_id, display=display, is_delete=True)
    with db.session() as s, s.begin():
        lifecycle.delete_resource(s, post_id=post_id, display=display)
    kinds = [(e.kind, e.data["postId"], e.data["title"]) for e in _events(db)]
    assert kinds == [
        ("resource.published", post_id, "Better Trees"),
        ("resource.updated", post_id, "Better Trees"),
        ("resource.deleted", post_id, "Better Trees"),
    ]
    assert _events(db)[2].data["resourceVersion"] == "2.0"
    assert len(dispatcher.notified) == 3  # one hand-over per committed transaction
    with db.session() as s:
        assert s.get(ResourcePost, post_id).is_delete
        with pytest.raises(ApiError):
            lifecycle.delete_resource(s, post_id=post_id, display=display)


def test_a_draft_update_raises_no_event(db, display, posts):
    post_id, _ = posts
    with db.session() as s, s.begin():
        lifecycle.update_resource(s, post_id=post_id, display=display, main_name="Draft 2")
    assert _events(db) == []


def test_server_status_emits_only_on_change(db, display, posts):
    _, server_id = posts
    with db.session() as s, s.begin():
        assert lifecycle.set_server_status(s, post_id=server_id, online=True, display=display)
        assert not lifecycle.set_server_status(s, post_id=server_id, online=True, display=display)
        assert lifecycle.set_server_status(s, post_id=server_id, online=False, display=display)
    assert [(e.kind, e.data["serverStatus"]) for e in _events(db)] == [
        ("server.status.online", "ONLINE"),
        ("server.status.offline", "OFFLINE"),
    ]


def test_events_roll_back_with_the_change(db, display, posts, dispatcher):
    post_id, _ = posts
    with db.session() as s:
        s.begin()
        lifecycle.publish_resource(s, post_id=post_id, display=display)
        s.rollback()
    assert _events(db) == [] and dispatcher.notified == []
    with db.session() as s:
        assert s.get(ResourcePost, post_id).status == "PENDING"
