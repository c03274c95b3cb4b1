"""The v1 reads: posts, resources, files, tags, servers, server status and forum statistics."""

import datetime as dt

import pytest

from tests.helpers.catalog import NOW, data, error_code


def test_v1_post_detail_of_a_resource_and_of_a_server(signed, cat, clock):
    pid = cat.post()
    sid = cat.server()
    post = data(signed.get(f"/openapi/v1/post/{pid}"))
    assert post["postType"] == "RESOURCE_POST" and post["postId"] == pid and "stats" in post
    assert data(signed.get(f"/openapi/v1/post/{pid}?postType=RESOURCE_POST"))["postId"] == pid
    server = data(signed.get(f"/openapi/v1/post/{sid}?postType=SERVER_POST"))
    assert server["postType"] == "SERVER_POST" and server["serverIp"] == "play.example.net"
    assert server["lastHeartbeatTime"] == "2026-05-01 12:00:00"


@pytest.mark.parametrize(
    "query,status,code",
    [
        ("?postType=DISCUSS_POST", 404, 200404),
        ("?postType=QUESTION_POST", 404, 200404),
        ("?postType=BLOG", 400, 200301),
        ("?postType=SERVER_POST", 404, 200404),
    ],
)
def test_v1_post_detail_errors(signed, cat, query, status, code):
    pid = cat.post()
    cat.server(is_delete=True)
    assert (
        error_code(signed.get(f"/openapi/v1/post/{987654321 if status == 404 else pid}{query}"), status)
        == code
    )


def test_v1_post_detail_hides_unlisted(signed, cat):
    for hidden in ({"visibility": "PRIVATE"}, {"is_delete": True}, {"status": "DRAFT"}):
        assert error_code(signed.get(f"/openapi/v1/post/{cat.post(**hidden)}"), 404) == 200404


def test_v1_batch_detail(signed, cat, clock):
    a, b, private = cat.post(), cat.post(), cat.post(visibility="PRIVATE")
    got = data(signed.post("/openapi/v1/post/batch-detail", json={"postIds": [b, private, 55555555, a]}))
    assert [x and x["postId"] for x in got] == [b, None, None, a]
    assert got[0]["postType"] == "RESOURCE_POST" and got[0]["stats"]["viewsLast24h"] == 0
    too_many = {"postIds": list(range(1, 22))}
    assert error_code(signed.post("/openapi/v1/post/batch-detail", json=too_many), 400) == 200301
    assert error_code(signed.post("/openapi/v1/post/batch-detail", json={"postIds": []}), 400) == 200301


def test_v1_post_query_newest_first_with_filters(signed, cat):
    old = cat.post(main_name="Old Tech", publish_time=NOW - dt.timedelta(days=3))
    new = cat.post(main_name="New Magic", sub_name="魔法", publish_time=NOW)
    other = cat.post(main_name="Terraria Tech", section_code="terraria")
    cat.post(main_name="Private Tech", visibility="PRIVATE")
    page = data(signed.get("/openapi/v1/post/query?sectionCode=minecraft"))
    assert [p["postId"] for p in page["list"]] == [new, old] and page["total"] == 2
    assert page["list"][0]["postType"] == "RESOURCE_POST"
    tech = data(signed.get("/openapi/v1/post/query?keyword=TECH"))
    assert {p["postId"] for p in tech["list"]} == {old, other}
    assert [p["postId"] for p in data(signed.get("/openapi/v1/post/query?keyword=魔法"))["list"]] == [new]
    paged = data(signed.get("/openapi/v1/post/query?pageNum=2&pageSize=1&sectionCode=minecraft"))
    assert [p["postId"] for p in paged["list"]] == [old] and paged["pages"] == 2


def test_v1_post_query_servers_and_errors(signed, cat):
    sid = cat.server()
    cat.server(is_delete=True)
    named = cat.server(main_name="100% 在线 Survival")
    page = data(signed.get("/openapi/v1/post/query?postType=SERVER_POST"))
    assert {p["postId"] for p in page["list"]} == {sid, named}
    percent = data(signed.get("/openapi/v1/post/query?postType=SERVER_POST&keyword=0%25%20在"))
    assert [p["postId"] for p in percent["list"]] == [named]
    assert data(signed.get("/openapi/v1/post/query?postType=SERVER_POST&keyword=%25%25"))["total"] == 0
    assert data(signed.get("/openapi/v1/post/query?postType=DISCUSS_POST"))["total"] == 0
    assert error_code(signed.get("/openapi/v1/post/query?pageSize=101"), 400) == 200301
    assert error_code(signed.get("/openapi/v1/post/query?pageNum=200&pageSize=100"), 400) == 200304


def test_v1_resource_and_files(signed, cat, clock):
    pid = cat.post()
    fid = cat.file(pid)
    assert data(signed.get(f"/openapi/v1/resource/{pid}"))["detailUrl"].endswith(f"/resource/{pid}")
    assert [f["fileInfoId"] for f in data(signed.get(f"/openapi/v1/resource/{pid}/files"))] == [fid]
    hidden = cat.post(status="PENDING")
    assert error_code(signed.get(f"/openapi/v1/resource/{hidden}"), 404) == 200404
    assert error_code(signed.get(f"/openapi/v1/resource/{hidden}/files"), 404) == 200404


def test_v1_tags_most_used_first(signed, cat):
    pvp, build, unused = cat.tag("PVP"), cat.tag("建筑"), cat.tag("冷门")
    other = cat.tag("PVP", section="terraria")
    cat.post(tags=["建筑", "PVP"])
    cat.post(tags=["建筑"])
    cat.post(tags=["PVP"], visibility="PRIVATE")
    cat.post(tags=["PVP"], section_code="terraria")
    tags = data(signed.get("/openapi/v1/tags?sectionCode=minecraft"))
    assert [(t["tagId"], t["postCount"]) for t in tags] == [(build, 2), (pvp, 1), (unused, 0)]
    assert tags[0] == {"tagId": build, "name": "建筑", "sectionCode": "minecraft", "postCount": 2}
    every = data(signed.get("/openapi/v1/tags"))
    assert {t["tagId"] for t in every} == {pvp, build, unused, other}
    assert len(data(signed.get("/openapi/v1/tags?pageSize=1"))) == 1
    assert error_code(signed.get("/openapi/v1/tags?pageSize=201"), 400) == 200301


def test_v1_servers_query_and_status(signed, cat):
    busy = cat.server(current_players=40, query_type="MINECRAFT")
    quiet = cat.server(current_players=1, query_enabled=False)
    off = cat.server(current_players=0, server_status="OFFLINE")
    cat.server(current_players=99, is_delete=True)
    page = data(signed.get("/openapi/v1/server/query?pageNum=1&pageSize=10"))
    assert [s["postId"] for s in page["list"]] == [busy, quiet, off]
    online = data(signed.get("/openapi/v1/server/query?pageNum=1&pageSize=10&serverStatus=ONLINE"))
    assert [s["postId"] for s in online["list"]] == [busy, quiet]
    queryable = data(signed.get("/openapi/v1/server/query?pageNum=1&pageSize=10&queryEnabled=false"))
    assert [s["postId"] for s in queryable["list"]] == [quiet]
    assert error_code(signed.get("/openapi/v1/server/query?pageNum=1"), 400) == 200301
    assert error_code(signed.get("/openapi/v1/server/query?pageNum=1&pageSize=101"), 400) == 200301
    status = data(signed.get(f"/openapi/v1/server/{busy}/status"))
    assert status["currentPlayers"] == 40 and status["queryType"] == "MINECRAFT" and "serverIp" not in status
    assert error_code(signed.get("/openapi/v1/server/424242/status"), 404) == 200404


def test_v1_forum_stats(signed, cat, make_user, clock):
    make_user()
    cat.post(publish_time=NOW)
    cat.post(publish_time=NOW - dt.timedelta(days=2))
    cat.post(publish_time=NOW, visibility="PRIVATE")
    cat.server()
    stats = data(signed.get("/openapi/v1/stats/forum"))
    assert stats["totalResourcePosts"] == 2 and stats["todayNewPosts"] == 1
    assert stats["totalServerPosts"] == 1 and stats["totalUsers"] >= 1
    assert stats["totalDiscussPosts"] is None and stats["statsTime"] == "2026-05-01 12:00:00"


def test_nul_characters_in_parameters_are_refused(signed):
    for url in (
        "/openapi/v1/server/query?pageNum=1&pageSize=5&serverStatus=ON%00LINE",
        "/openapi/v1/tags?sectionCode=mine%00craft",
        "/openapi/v1/post/query?keyword=a%00b",
    ):
        assert error_code(signed.get(url), 400) == 200301
