"""Resource batch, featured, detail, authors and description, on both alias paths."""

import datetime as dt

import pytest

from models.catalog.service import FEATURED
from models.catalog.tables import ResourcePost
from tests.helpers.catalog import NOW, data, error_code

HIDDEN = [{"visibility": "PRIVATE"}, {"is_delete": True}, {"status": "DRAFT"}, {"status": "PENDING"}]


@pytest.mark.parametrize("path", ["/openapi/v2/mods", "/openapi/v2/resource/batch"])
def test_batch_in_request_order_with_null_for_missing_and_unlisted(signed, cat, make_user, path):
    owner = make_user(username="作者 owner", avatar="a/1.png")
    a, b = cat.post(), cat.post()
    cat.author(a, owner)
    hidden = [cat.post(**h) for h in HIDDEN]
    got = data(signed.post(path, json={"postIds": [b, 999_999_999, a, *hidden, b]}))
    assert [x and x["postId"] for x in got] == [b, None, a, None, None, None, None, b]
    assert got[2]["authors"] == [
        {
            "userId": owner,
            "userName": "作者 owner",
            "role": "OWNER",
            "avatarUrl": "https://cdn.example/a/1.png",
        }
    ]


@pytest.mark.parametrize("path", ["/openapi/v2/mods", "/openapi/v2/resource/batch"])
@pytest.mark.parametrize(
    "body", [{"postIds": []}, {"postIds": list(range(1, 52))}, {"postIds": [0]}, {"postIds": ["x"]}, {}]
)
def test_batch_bad_input(signed, path, body):
    assert error_code(signed.post(path, json=body), 400) == 200301


def test_batch_accepts_exactly_fifty(signed, cat):
    a = cat.post()
    got = data(signed.post("/openapi/v2/mods", json={"postIds": [a] + list(range(10**9, 10**9 + 49))}))
    assert len(got) == 50 and got[0]["postId"] == a and got[1:] == [None] * 49


@pytest.mark.parametrize("path", ["/openapi/v2/mods/featured", "/openapi/v2/resource/featured"])
def test_featured_ranks_by_downloads_likes_and_freshness(signed, cat, path):
    old = NOW - dt.timedelta(days=300)
    popular = cat.post(download_count=100_000, like_count=10, update_time=old)
    liked = cat.post(download_count=100, like_count=5000, update_time=old)
    fresh = cat.post(download_count=1000, like_count=10, update_time=NOW)
    stale = cat.post(download_count=1000, like_count=10, update_time=NOW - dt.timedelta(days=120))
    for h in HIDDEN:
        cat.post(download_count=10**9, like_count=10**9, **h)
    got = [x["postId"] for x in data(signed.get(path))]
    # fresh 6.91 + 4.80 = 11.70; liked 4.62 + 17.03 - 10 = 11.65; stale 11.70 - 4 = 7.70;
    # popular 11.51 + 4.80 - 10 = 6.31
    assert got == [fresh, liked, stale, popular]


def test_featured_is_capped_at_twenty(signed, cat):
    for i in range(FEATURED + 3):
        cat.post(download_count=i)
    assert len(data(signed.get("/openapi/v2/mods/featured"))) == FEATURED


@pytest.fixture()
def rich(cat, make_user):
    owner, helper, fan = (make_user(username=n, avatar="av/x.png") for n in ("owner", "helper", "fan"))
    pid = cat.post(
        display_images=["s/1.jpg", "https://elsewhere.example/2.jpg"],
        content_copyright="CC",
        creation_type="ORIGINAL",
        source_state="OPEN",
        enable_version_grouping=True,
        is_paid=True,
        price_amount=12,
        price_currency_code="CNY",
        rating_count=2,
        rating_total=9,
        description_html='<p>说明<img src="s.png" onerror="x()"></p>',
        description_md="说明",
    )
    cat.author(pid, helper, "CONTRIBUTOR", 0)
    cat.author(pid, owner, "OWNER", 5)
    cat.author(pid, fan, "COLLABORATOR", 1)
    cat.link(pid, "WIKI", sort_order=2)
    cat.link(pid, "SOURCE", sort_order=1, label="GitHub")
    today = NOW.date()
    for back, views in [(0, 1), (3, 10), (10, 100), (29, 1000), (30, 10000)]:
        cat.daily(pid, today - dt.timedelta(days=back), views=views, downloads=views * 2, collects=1)
    cat.daily(pid, today + dt.timedelta(days=1), views=99999)  # a future day is ignored
    return {"pid": pid, "owner": owner, "helper": helper, "fan": fan}


@pytest.mark.parametrize("prefix", ["/openapi/v2/mods", "/openapi/v2/resource"])
def test_detail_is_the_summary_plus_detail_fields_and_stats(signed, rich, clock, prefix):
    d = data(signed.get(f"{prefix}/{rich['pid']}"))
    assert d["postId"] == rich["pid"] and d["detailUrl"] == f"https://modhub.example/resource/{rich['pid']}"
    assert d["coverImageUrl"] == "https://cdn.example/covers/1.jpg"
    assert d["displayImages"] == ["https://cdn.example/s/1.jpg", "https://elsewhere.example/2.jpg"]
    assert d["publishTime"] == "2026-05-01 12:00:00"  # UTC 04:00 shown in Asia/Shanghai
    assert [a["role"] for a in d["authors"]] == ["OWNER", "COLLABORATOR", "CONTRIBUTOR"]
    assert d["links"] == [
        {"linkType": "SOURCE", "url": "https://git.example/x", "label": "GitHub"},
        {"linkType": "WIKI", "url": "https://git.example/x", "label": "百科 Wiki"},
    ]
    assert d["stats"] == {
        "viewsLast24h": 1,
        "viewsLast7d": 11,
        "viewsLast30d": 1111,
        "downloadsLast24h": 2,
        "downloadsLast7d": 22,
        "downloadsLast30d": 2222,
        "collectsLast24h": 1,
        "collectsLast7d": 2,
        "collectsLast30d": 4,
    }
    assert d["averageRating"] == 4.5 and d["priceAmount"] == 12.0 and d["isPaid"] is True
    assert d["enableVersionGrouping"] is True and d["visibility"] == "PUBLIC"
    assert "description_html" not in d and "content" not in d


def test_detail_stats_are_zero_without_history(signed, cat, clock):
    stats = data(signed.get(f"/openapi/v2/mods/{cat.post()}"))["stats"]
    assert set(stats.values()) == {0} and len(stats) == 9


@pytest.mark.parametrize("prefix", ["/openapi/v2/mods", "/openapi/v2/resource"])
@pytest.mark.parametrize(
    "suffix", ["", "/authors", "/description", "/comments", "/rating", "/relations", "/versions", "/files"]
)
def test_unlisted_or_unknown_resources_are_not_found(signed, cat, prefix, suffix):
    for pid in [cat.post(**h) for h in HIDDEN] + [987_654_321]:
        assert error_code(signed.get(f"{prefix}/{pid}{suffix}"), 404) == 200404
    assert error_code(signed.get(f"{prefix}/0{suffix}"), 400) == 200301


@pytest.mark.parametrize("prefix", ["/openapi/v2/mods", "/openapi/v2/resource"])
def test_authors_ordered_by_role(signed, rich, make_user, cat, prefix):
    gone = make_user(username="gone", is_delete=True)
    cat.author(rich["pid"], gone, "COLLABORATOR", 0)
    authors = data(signed.get(f"{prefix}/{rich['pid']}/authors"))
    assert [a["userId"] for a in authors] == [rich["owner"], rich["fan"], rich["helper"]]
    assert authors[0]["avatarUrl"] == "https://cdn.example/av/x.png"


@pytest.mark.parametrize("prefix", ["/openapi/v2/mods", "/openapi/v2/resource"])
def test_description_html_and_markdown(signed, rich, prefix):
    d = data(signed.get(f"{prefix}/{rich['pid']}/description"))
    assert d == {
        "postId": rich["pid"],
        "content": '<p>说明<img src="s.png"></p>',
        "mdContent": "说明",
        "updateTime": "2026-05-01 12:00:00",
    }


def test_detail_url_is_empty_without_site_url(settings, db, quota, contract, creds, checker, cat):
    from modhub.app import create_app
    from tests.support import SignedClient

    app = create_app(settings.replace(site_url="", cdn_base_url=""), db=db, quota=quota, contract=contract)
    pid = cat.post()
    with app.test_client() as client:
        d = data(SignedClient(client, creds, checker).post("/openapi/v2/mods", json={"postIds": [pid]}))[0]
    assert d["detailUrl"] == "" and d["coverImageUrl"] == "covers/1.jpg"


def test_summary_mirrors_the_post(signed, db, cat):
    pid = cat.post(main_categories=["a", "b", "c", "d", "e", "f"], server_installable=None)
    d = data(signed.post("/openapi/v2/mods", json={"postIds": [pid]}))[0]
    with db.session() as session:
        post = session.get(ResourcePost, pid)
        assert d["mainName"] == post.main_name and d["mainCategories"] == ["a", "b", "c", "d", "e"]
    assert d["serverInstallable"] is None and d["averageRating"] == 0.0
