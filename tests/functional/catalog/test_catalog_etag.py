"""Conditional GET: an ETag over the data alone, and 304 on a matching If-None-Match."""

import pytest

from tests.helpers.catalog import data

READS = [
    "/openapi/v2/mods/{pid}",
    "/openapi/v2/resource/{pid}",
    "/openapi/v2/mods/{pid}/comments",
    "/openapi/v2/resource/{pid}/files",
    "/openapi/v2/games",
    "/openapi/v2/category/tree",
    "/openapi/v2/mods/featured",
    "/openapi/v1/resource/{pid}",
    "/openapi/v1/tags",
    "/openapi/v2/stats/mods/{pid}",
]


@pytest.mark.parametrize("template", READS)
def test_reads_carry_an_etag_and_answer_304_when_it_matches(signed, cat, clock, template):
    cat.section("minecraft")
    url = template.format(pid=cat.post())
    first = signed.get(url, headers={"X-Request-Id": "first-request"})
    second = signed.get(url, headers={"X-Request-Id": "second-request"})
    tag = first.headers["ETag"]
    assert tag.startswith('W/"') and second.headers["ETag"] == tag  # the traceId takes no part
    assert first.json()["traceId"] != second.json()["traceId"]
    again = signed.get(url, headers={"If-None-Match": tag})
    assert again.status_code == 304 and again.content == b"" and again.headers["ETag"] == tag
    assert again.headers["X-Request-Id"]
    assert signed.get(url, headers={"If-None-Match": 'W/"other", ' + tag}).status_code == 304
    assert signed.get(url, headers={"If-None-Match": "*"}).status_code == 304
    assert data(signed.get(url, headers={"If-None-Match": 'W/"stale"'})) is not None


def test_the_tag_changes_with_the_data(signed, cat, db):
    from models.catalog.tables import ResourcePost

    pid = cat.post()
    tag = signed.get(f"/openapi/v2/stats/mods/{pid}").headers["ETag"]
    with db.session() as session:
        session.get(ResourcePost, pid).views_count += 1
        session.commit()
    changed = signed.get(f"/openapi/v2/stats/mods/{pid}", headers={"If-None-Match": tag})
    assert changed.status_code == 200 and changed.headers["ETag"] != tag
    assert data(changed)["totalViews"] == 1


@pytest.mark.parametrize(
    "path,body",
    [
        ("/openapi/v2/resource/batch", "postIds"),
        ("/openapi/v2/file/batch", "fileInfoIds"),
        ("/openapi/v1/post/batch-detail", "postIds"),
    ],
)
def test_batches_honour_if_none_match(signed, cat, clock, path, body):
    pid = cat.post()
    ids = [cat.file(pid)] if body == "fileInfoIds" else [pid]
    tag = signed.post(path, json={body: ids}).headers["ETag"]
    assert signed.post(path, json={body: ids}, headers={"If-None-Match": tag}).status_code == 304
    other = signed.post(path, json={body: ids + [999_999]}, headers={"If-None-Match": tag})
    assert other.status_code == 200 and other.headers["ETag"] != tag


def test_errors_and_the_forum_stats_carry_no_etag(signed, cat):
    assert "ETag" not in signed.get("/openapi/v2/mods/424242").headers
    assert "ETag" not in signed.get("/openapi/v1/stats/forum").headers
