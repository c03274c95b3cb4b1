"""Resource search over HTTP on PostgreSQL: keyword (English and Chinese), filters, sorts, paging."""

from __future__ import annotations

import datetime as dt

import pytest

from tests.helpers.search import ids

PATHS = ["/openapi/v2/mods/search", "/openapi/v2/resource/query"]


def get(signed, path: str, **params) -> dict:
    response = signed.get(path, params=params)
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["code"] == 0
    return body["data"]


@pytest.fixture()
def catalogue(make_post, make_user):
    """A small mixed-language catalogue plus posts that must never be listed."""
    author = make_user(username="steve", avatar="avatars/steve.png")
    helper = make_user(username="alex")
    return {
        "optifine": make_post(
            main_name="OptiFine HD",
            sub_name="Performance boost",
            abbr_name="optifine",
            introduction="Makes the game run faster",
            tags=["performance"],
            download_count=900,
            like_count=5,
            authors=((helper, "CONTRIBUTOR"), (author, "OWNER")),
        ),
        "shader": make_post(
            main_name="Sildur Shaders",
            introduction="Beautiful shaders with optifine",
            tags=["graphics"],
            download_count=500,
            like_count=50,
            resource_type="shader",
            run_platform="fabric",
            is_paid=True,
            main_categories=["graphics", "tech"],
            rating_count=2,
            rating_total=9,
        ),
        "chinese": make_post(
            main_name="我的世界工业模组",
            sub_name="工业时代",
            introduction="添加机器与电力系统",
            tags=["科技"],
            download_count=700,
            client_environment="REQUIRED",
            server_environment="REQUIRED",
            resource_state="ABANDONED",
            section_code="terraria",
            main_categories=["industry"],
        ),
        "draft": make_post(main_name="OptiFine draft", status="DRAFT"),
        "private": make_post(main_name="OptiFine private", visibility="PRIVATE"),
        "deleted": make_post(
            main_name="OptiFine deleted", is_delete=True, delete_time=dt.datetime.now(dt.UTC)
        ),
    }


@pytest.mark.parametrize("path", PATHS)
def test_search_keyword_english_both_paths(signed, catalogue, path):
    page = get(signed, path, keyword="optifine")
    # title/abbreviation match ranks above a mention in the introduction; unlisted never appear
    assert ids(page) == [catalogue["optifine"], catalogue["shader"]]
    assert page["total"] == 2 and page["pages"] == 1 and page["hasMore"] is False
    assert page["emptyFlag"] is False


def test_search_keyword_partial_word_and_case(signed, catalogue):
    # partial words match in titles, abbreviation and tags; the introduction needs whole words
    assert ids(get(signed, PATHS[0], keyword="OPTIF")) == [catalogue["optifine"]]
    assert ids(get(signed, PATHS[0], keyword="erforman")) == [catalogue["optifine"]]
    assert ids(get(signed, PATHS[0], keyword="FASTER")) == [catalogue["optifine"]]


@pytest.mark.parametrize(
    "keyword", ["工业", "世界工业", "电力系统", "科技", "工业时代", "机器", "我的世界工业模组", "工"]
)
def test_search_keyword_chinese_substrings(signed, catalogue, keyword):
    assert ids(get(signed, PATHS[1], keyword=keyword)) == [catalogue["chinese"]]


def test_search_keyword_without_match_is_an_empty_page(signed, catalogue):
    page = get(signed, PATHS[0], keyword="no such thing 不存在")
    assert page["list"] == [] and page["total"] == 0 and page["pages"] == 0
    assert page["emptyFlag"] is True and page["hasMore"] is False


def test_search_keyword_with_like_wildcards_is_literal(signed, catalogue):
    assert get(signed, PATHS[0], keyword="%")["total"] == 0
    assert get(signed, PATHS[0], keyword="_")["total"] == 0


@pytest.mark.parametrize(
    ("params", "expected"),
    [
        ({"sectionCode": "terraria"}, ["chinese"]),
        ({"resourceType": "shader"}, ["shader"]),
        ({"mainCategory": "graphics"}, ["shader"]),
        ({"mainCategory": "tech", "sort": "downloads"}, ["optifine", "shader"]),
        ({"runPlatform": "fabric"}, ["shader"]),
        ({"clientEnvironment": "REQUIRED"}, ["chinese"]),
        ({"serverEnvironment": "REQUIRED"}, ["chinese"]),
        ({"isPaid": "true"}, ["shader"]),
        ({"isPaid": "false", "sort": "downloads"}, ["optifine", "chinese"]),
        ({"resourceState": "ABANDONED"}, ["chinese"]),
        ({"resourceState": "ACTIVE", "keyword": "shaders"}, ["shader"]),
    ],
)
def test_search_filters(signed, catalogue, params, expected):
    assert ids(get(signed, PATHS[0], **params)) == [catalogue[name] for name in expected]


@pytest.mark.parametrize(
    ("sort", "order", "expected"),
    [
        ("downloads", "desc", ["optifine", "chinese", "shader"]),
        ("downloads", "asc", ["shader", "chinese", "optifine"]),
        ("likes", "desc", ["shader", "optifine", "chinese"]),
        ("rating", "desc", ["shader", "chinese", "optifine"]),
    ],
)
def test_search_sorts(signed, catalogue, sort, order, expected):
    page = get(signed, PATHS[1], sort=sort, order=order)
    got = [i for i in ids(page) if i in catalogue.values()]
    assert got == [catalogue[name] for name in expected]


def test_search_ties_break_on_post_id_in_the_sort_direction(signed, make_post):
    same = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
    posts = [make_post(section_code="tie", update_time=same, publish_time=same) for _ in range(5)]
    assert ids(get(signed, PATHS[0], sectionCode="tie")) == sorted(posts, reverse=True)
    assert ids(get(signed, PATHS[0], sectionCode="tie", sort="publishTime", order="asc")) == posts


def test_search_paging_totals_and_has_more(signed, make_post):
    posts = [make_post(section_code="paging", download_count=n) for n in range(7)]
    first = get(signed, PATHS[0], sectionCode="paging", sort="downloads", pageSize=3)
    last = get(signed, PATHS[0], sectionCode="paging", sort="downloads", pageSize=3, pageNum=3)
    beyond = get(signed, PATHS[0], sectionCode="paging", sort="downloads", pageSize=3, pageNum=4)
    assert (first["total"], first["pages"], first["hasMore"], first["pageSize"]) == (7, 3, True, 3)
    assert ids(first) == posts[::-1][:3] and ids(last) == [posts[0]]
    assert last["hasMore"] is False and beyond["emptyFlag"] is True and beyond["total"] == 7


def test_search_summary_carries_authors_in_role_order(signed, catalogue):
    item = get(signed, PATHS[0], keyword="OptiFine HD")["list"][0]
    assert [(a["userName"], a["role"]) for a in item["authors"]] == [
        ("steve", "OWNER"),
        ("alex", "CONTRIBUTOR"),
    ]
    assert item["authors"][0]["avatarUrl"].endswith("avatars/steve.png")
    assert item["detailUrl"] == f"https://modhub.example/resource/{catalogue['optifine']}"


@pytest.mark.parametrize(
    ("params", "code"),
    [
        ({"pageNum": 101, "pageSize": 100}, 200304),
        ({"pageNum": 10000, "pageSize": 2}, 200304),
        ({"pageSize": 101}, 200301),
        ({"pageNum": 0}, 200301),
        ({"sort": "popularity"}, 200301),
        ({"order": "sideways"}, 200301),
        ({"clientEnvironment": "SOMETIMES"}, 200301),
        ({"isPaid": "maybe"}, 200301),
    ],
)
def test_search_bad_input(signed, params, code):
    response = signed.get(PATHS[0], params=params)
    assert response.status_code == 400 and response.json()["code"] == code


def test_search_deepest_allowed_page_is_served(signed):
    # offsets 9900 and 9999 are below the bound
    assert get(signed, PATHS[0], pageNum=100, pageSize=100)["list"] == []
    assert get(signed, PATHS[1], pageNum=10000, pageSize=1)["pageNum"] == 10000


def test_legacy_query_newest_first_with_required_paging(signed, catalogue, change_post):
    change_post(catalogue["shader"], sub_name="v2")  # now the most recently updated
    page = get(signed, "/openapi/v1/resource/query", pageNum=1, pageSize=10, keyword="optifine")
    assert ids(page) == [catalogue["shader"], catalogue["optifine"]]
    assert page["list"][0]["mainName"] == "Sildur Shaders"
    assert (
        get(signed, "/openapi/v1/resource/query", pageNum=1, pageSize=10, sectionCode="terraria")["total"]
        == 1
    )
    missing = signed.get("/openapi/v1/resource/query", params={"pageNum": 1})
    assert missing.status_code == 400 and missing.json()["code"] == 200301
    deep = signed.get("/openapi/v1/resource/query", params={"pageNum": 201, "pageSize": 50})
    assert deep.status_code == 400 and deep.json()["code"] == 200304


def test_search_relevance_order_as_documented(signed, make_post):
    """mainName holding the whole keyword first, then title over abbreviation/tags over
    introduction matches, whatever the post ids."""
    main_title = make_post(main_name="The Quarry Drill")  # oldest, still first
    intro = make_post(main_name="Alpha", introduction="a quarry drill for caves")
    tag = make_post(main_name="Beta", tags=["quarry", "drill"])
    sub_title = make_post(main_name="Gamma", sub_name="drill quarry")
    assert ids(get(signed, PATHS[0], keyword="quarry drill")) == [main_title, sub_title, tag, intro]


def test_search_keyword_with_other_sort_and_deep_page(signed, make_post):
    posts = [make_post(main_name=f"Lantern {n}", download_count=n * 10) for n in range(5)]
    make_post(main_name="Unrelated", download_count=1000)
    asc = get(signed, PATHS[0], keyword="lantern", sort="downloads", order="asc", pageSize=2)
    assert ids(asc) == posts[:2] and asc["total"] == 5 and asc["pages"] == 3 and asc["hasMore"]
    beyond = get(signed, PATHS[0], keyword="lantern", pageSize=2, pageNum=4)
    assert beyond["list"] == [] and beyond["total"] == 5 and beyond["hasMore"] is False
