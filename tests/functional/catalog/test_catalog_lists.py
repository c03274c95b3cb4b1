"""Comments, rating, relations, versions, files and statistics of a resource, on both alias paths."""

import datetime as dt

import pytest

from tests.helpers.catalog import NOW, data, error_code

PREFIXES = ["/openapi/v2/mods", "/openapi/v2/resource"]


@pytest.mark.parametrize("prefix", PREFIXES)
def test_comments_normal_and_live_only_newest_first_paged(signed, cat, make_user, prefix):
    pid, other = cat.post(), cat.post()
    user = make_user(username="评论者", avatar="av/c.png")
    ids = [cat.comment(pid, user, create_time=NOW + dt.timedelta(minutes=i)) for i in range(5)]
    reply = cat.comment(
        pid,
        user,
        parent_id=ids[0],
        create_time=NOW + dt.timedelta(minutes=10),
        content='<p onclick="steal()">回复<script>alert(1)</script></p>',
    )
    cat.comment(pid, user, status="PENDING", create_time=NOW + dt.timedelta(hours=1))
    cat.comment(pid, user, is_delete=True, create_time=NOW + dt.timedelta(hours=1))
    cat.comment(other, user)
    cat.comment(pid, user, entity_type="DISCUSS_POST")
    first = data(signed.get(f"{prefix}/{pid}/comments?pageSize=4"))
    assert [c["commentId"] for c in first["list"]] == [reply, ids[4], ids[3], ids[2]]
    assert (first["total"], first["pages"], first["hasMore"], first["pageNum"]) == (6, 2, True, 1)
    assert first["list"][0]["parentId"] == ids[0] and first["list"][0]["userName"] == "评论者"
    assert first["list"][0]["content"] == "<p>回复</p>"  # served XSS-filtered
    assert first["list"][0]["avatarUrl"] == "https://cdn.example/av/c.png"
    assert first["list"][0]["createTime"] == "2026-05-01 12:10:00"
    assert first["list"][1]["content"] == "<p>好评 great</p>"
    second = data(signed.get(f"{prefix}/{pid}/comments?pageNum=2&pageSize=4"))
    assert [c["commentId"] for c in second["list"]] == [ids[1], ids[0]] and second["hasMore"] is False
    beyond = data(signed.get(f"{prefix}/{pid}/comments?pageNum=9"))
    assert beyond["list"] == [] and beyond["emptyFlag"] is True and beyond["total"] == 6


@pytest.mark.parametrize("prefix", PREFIXES)
@pytest.mark.parametrize(
    "query,code",
    [
        ("pageSize=101", 200301),
        ("pageSize=0", 200301),
        ("pageNum=0", 200301),
        ("pageNum=10001", 200301),
        ("pageNum=x", 200301),
        ("pageNum=101&pageSize=100", 200304),
        ("pageNum=10000&pageSize=1", None),
    ],
)
def test_comments_bad_paging(signed, cat, prefix, query, code):
    pid = cat.post()
    response = signed.get(f"{prefix}/{pid}/comments?{query}")
    if code is None:  # offset 9999 is the deepest page allowed
        assert data(response)["list"] == []
    else:
        assert error_code(response, 400) == code


@pytest.mark.parametrize("prefix", PREFIXES)
def test_rating_has_all_five_stars(signed, cat, make_user, prefix):
    pid, empty = cat.post(), cat.post()
    for score in (5, 5, 4, 1):
        cat.rating(pid, make_user(), score)
    assert data(signed.get(f"{prefix}/{pid}/rating")) == {
        "averageScore": 3.75,
        "totalCount": 4,
        "starDistribution": {"1": 1, "2": 0, "3": 0, "4": 1, "5": 2},
    }
    assert data(signed.get(f"{prefix}/{empty}/rating")) == {
        "averageScore": 0.0,
        "totalCount": 0,
        "starDistribution": {str(s): 0 for s in range(1, 6)},
    }


@pytest.mark.parametrize("prefix", PREFIXES)
def test_relations_grouped_by_type_then_sort_order(signed, cat, prefix):
    pid, a, b, c = cat.post(), cat.post(), cat.post(), cat.post()
    cat.relation(pid, c, "RECOMMENDATION", sort_order=0)
    cat.relation(pid, b, "DEPENDENCY", sort_order=2, is_required=True)
    cat.relation(pid, a, "DEPENDENCY", sort_order=1, data_source="UPSTREAM_SYNC")
    got = data(signed.get(f"{prefix}/{pid}/relations"))
    assert [(r["relationType"], r["targetPostId"]) for r in got] == [
        ("DEPENDENCY", a),
        ("DEPENDENCY", b),
        ("RECOMMENDATION", c),
    ]
    assert got[0]["target"] is None and got[0]["dataSource"] == "UPSTREAM_SYNC"
    assert got[1]["isRequired"] is True


@pytest.mark.parametrize("prefix", PREFIXES)
def test_versions_approved_only_newest_first(signed, cat, prefix):
    pid = cat.post()
    cat.version(pid, 1, update_commit="首发 first")
    cat.version(pid, 3, approved=False)
    cat.version(pid, 2)
    got = data(signed.get(f"{prefix}/{pid}/versions"))
    assert [v["versionNumber"] for v in got] == [2, 1]
    assert got[1] == {
        "postId": pid,
        "versionNumber": 1,
        "resourceVersion": "1.1",
        "updateCommit": "首发 first",
        "publishTime": "2026-05-01 12:00:00",
    }


@pytest.mark.parametrize("prefix", PREFIXES)
def test_files_of_a_resource_newest_first(signed, cat, prefix):
    cat.platform("forge", name="Forge")
    pid = cat.post()
    old = cat.file(pid, publish_time=NOW - dt.timedelta(days=2))
    new = cat.file(pid, storage_type="DIRECT_LINK", sha256=None, file_size=None, environment_side="CLIENT")
    cat.file(pid, is_delete=True)
    cat.file(pid, file_status="HIDDEN")
    files = data(signed.get(f"{prefix}/{pid}/files"))
    assert [f["fileInfoId"] for f in files] == [new, old]
    assert files[1]["runPlatformName"] == "Forge" and files[1]["fingerprint"] == "ab" * 32
    assert files[0]["fingerprint"] is None and files[0]["hashes"] is None
    assert files[0]["storageType"] == "DIRECT_LINK" and files[0]["environmentSide"] == "CLIENT"
    assert files[1]["publishTime"] == "2026-04-29 12:00:00" and files[1]["sha256"] == "ab" * 32


@pytest.mark.parametrize("path", ["/openapi/v2/files", "/openapi/v2/file/batch"])
def test_file_batch_nulls_unknown_and_drops_files_of_non_public_resources(signed, cat, path):
    public, private, deleted = cat.post(), cat.post(visibility="PRIVATE"), cat.post(is_delete=True)
    a, b = cat.file(public), cat.file(public)
    hidden = [cat.file(private), cat.file(deleted)]
    gone = cat.file(public, is_delete=True)
    got = data(signed.post(path, json={"fileInfoIds": [b, hidden[0], 123_456_789, a, hidden[1], gone]}))
    assert [f and f["fileInfoId"] for f in got] == [b, None, a, None]


@pytest.mark.parametrize("path", ["/openapi/v2/files", "/openapi/v2/file/batch"])
@pytest.mark.parametrize("body", [{"fileInfoIds": []}, {"fileInfoIds": list(range(1, 52))}, {"ids": [1]}])
def test_file_batch_bad_input(signed, path, body):
    assert error_code(signed.post(path, json=body), 400) == 200301


@pytest.mark.parametrize("prefix", ["/openapi/v2/stats/games", "/openapi/v2/stats/section"])
def test_section_stats_over_listed_posts(signed, cat, prefix):
    cat.section("minecraft")
    cat.section("empty")
    cat.post(views_count=10, download_count=5, like_count=2, collection_count=1)
    cat.post(views_count=1, download_count=1, like_count=1, collection_count=1)
    cat.post(views_count=1000, visibility="PRIVATE")
    assert data(signed.get(f"{prefix}/minecraft")) == {
        "sectionCode": "minecraft",
        "postCount": 2,
        "totalViews": 11,
        "totalDownloads": 6,
        "totalLikes": 3,
        "totalCollects": 2,
    }
    assert data(signed.get(f"{prefix}/empty"))["postCount"] == 0
    assert error_code(signed.get(f"{prefix}/nope"), 404) == 200404


@pytest.mark.parametrize("prefix", ["/openapi/v2/stats/mods", "/openapi/v2/stats/resource"])
def test_resource_stats(signed, cat, prefix):
    pid = cat.post(
        views_count=7,
        download_count=6,
        like_count=5,
        collection_count=4,
        comment_count=3,
        rating_count=3,
        rating_total=10,
    )
    assert data(signed.get(f"{prefix}/{pid}")) == {
        "postId": pid,
        "totalViews": 7,
        "totalDownloads": 6,
        "totalLikes": 5,
        "totalCollects": 4,
        "totalComments": 3,
        "averageRating": 3.33,
    }
    assert error_code(signed.get(f"{prefix}/{cat.post(status='DRAFT')}"), 404) == 200404
    assert error_code(signed.get(f"{prefix}/0"), 400) == 200301
