"""Incremental sync over HTTP inside the test transaction: paths, cursor and bound handling.

Every write here shares the test's one transaction, so ordering across commits is covered by
test_sync_walk.py, which commits for real in a database of its own.
"""

from __future__ import annotations

import base64
import datetime as dt

import pytest

from tests.helpers.search import ids

PATHS = ["/openapi/v2/mods/sync", "/openapi/v2/resource/sync"]


def batch(signed, path: str, **params) -> dict:
    response = signed.get(path, params=params)
    assert response.status_code == 200, response.text
    return response.json()["data"]


def test_sync_walks_posts_sharing_one_timestamp_exactly_once(signed, make_post):
    same = dt.datetime(2026, 5, 1, 12, 0, tzinfo=dt.UTC)
    posts = [make_post(update_time=same) for _ in range(7)]
    make_post(main_name="never published", status="DRAFT", publish_time=None)
    seen, cursor, calls = [], "", 0
    while True:
        data = batch(signed, PATHS[calls % 2], cursor=cursor, size=3)  # alternate the alias paths
        seen += ids(data)
        calls += 1
        assert data["nextCursor"]  # kept even when hasMore is false
        cursor = data["nextCursor"]
        if not data["hasMore"]:
            break
    assert seen == posts and calls == 3
    assert all(
        item["updateTime"] == "2026-05-01 20:00:00" for item in batch(signed, PATHS[0], size=200)["items"]
    )  # Asia/Shanghai display
    again = batch(signed, PATHS[1], cursor=cursor)
    assert again == {"nextCursor": cursor, "hasMore": False, "items": [], "deletedPostIds": []}


def test_sync_walk_from_nothing_leaves_out_removals_made_before_it(signed, make_post):
    make_post(is_delete=True, delete_time=dt.datetime.now(dt.UTC))
    make_post(visibility="PRIVATE")
    kept = make_post()
    data = batch(signed, PATHS[0])
    assert ids(data) == [kept] and data["deletedPostIds"] == []


def test_sync_a_walk_from_a_v1_cursor_reports_every_removal(signed, make_post):
    gone = make_post(is_delete=True, delete_time=dt.datetime.now(dt.UTC))
    hidden = make_post(visibility="PRIVATE")
    kept = make_post()
    data = batch(signed, PATHS[0], cursor=_b64("v1.0.0"))  # cursors handed out before origins
    assert ids(data) == [kept] and data["deletedPostIds"] == [gone, hidden]


def test_sync_first_call_on_an_empty_feed(signed):
    data = batch(signed, PATHS[0])
    assert data["items"] == [] and data["hasMore"] is False and data["nextCursor"]


def _b64(text: str) -> str:
    return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


@pytest.mark.parametrize(
    "cursor",
    [
        "garbage!",
        "2026-01-01T00:00:00",
        _b64("v2.1.1"),
        _b64("v3.1.1.1"),
        _b64("v1.1"),
        _b64("v1.-1.5"),
        _b64("v1.1.1.1"),
        "é",
    ],
)
@pytest.mark.parametrize("path", PATHS)
def test_sync_invalid_cursor_is_200306(signed, path, cursor):
    response = signed.get(path, params={"cursor": cursor})
    assert response.status_code == 400 and response.json()["code"] == 200306


@pytest.mark.parametrize("size", [0, 201, "many"])
def test_sync_size_out_of_bounds_is_200301(signed, size):
    response = signed.get(PATHS[1], params={"size": size})
    assert response.status_code == 400 and response.json()["code"] == 200301
