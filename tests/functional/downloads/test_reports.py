"""Consumer reports on every alias path: download failures merged by fingerprint, the hiding
threshold of distinct reporters (search, batch, detail, the sync tombstone, resource.deleted),
the operator's restore, usefulness snapshots and resolved-since."""

from __future__ import annotations

import datetime as dt

import pytest
from sqlalchemy import select

from models.downloads import reports
from models.downloads.tables import Feedback
from models.webhooks.tables import OutboxEvent
from modhub.core.errors import ApiError
from tests.helpers.catalog import data, error_code

FAILURE = [
    "/openapi/v2/mods/{}/download-failure",
    "/openapi/v2/resource/{}/download-failure",
    "/openapi/v2/modpacks/{}/download-failure",
]
USEFUL = [
    "/openapi/v2/mods/{}/user-feedback-report",
    "/openapi/v2/resource/{}/user-feedback-report",
    "/openapi/v2/modpacks/{}/user-feedback-report",
]
RESOLVED = [
    "/openapi/v2/mods/user-feedback/resolved-since",
    "/openapi/v2/resource/user-feedback/resolved-since",
    "/openapi/v2/modpacks/user-feedback/resolved-since",
]


@pytest.fixture()
def settings(settings):
    """A hiding threshold of three distinct reporters, four new reports per application a day."""
    return settings.replace(
        download_failure_hide_threshold=3,
        download_failure_reports_per_app_day=4,
        cdn_base_url="https://cdn.example",
    )


def _fail(signed, post, fingerprint="fp-1", user=None, path=FAILURE[0], token=None, **extra):
    headers = {"X-Proxy-User-Id": str(user)} if user else {}
    if token:
        headers["X-Proxy-Access-Token"] = token
    return signed.post(
        path.format(post),
        json={"fingerprint": fingerprint, "errorType": "HTTP_ERROR", "httpStatus": 503, **extra},
        headers=headers,
    )


def _rows(db, post):
    with db.session() as s:
        return s.scalars(select(Feedback).where(Feedback.post_id == post).order_by(Feedback.id)).all()


def test_failures_are_merged_by_fingerprint_and_summed(signed, db, cat, post):
    fid = cat.file(post)
    for path in FAILURE:
        assert data(_fail(signed, post, path=path, count=2, fileInfoId=fid)) is None
    _fail(signed, post, fingerprint="fp-2", errorType="TIMEOUT")
    rows = _rows(db, post)
    assert [(r.fingerprint, r.count, r.kind) for r in rows] == [
        ("fp-1", 6, "DOWNLOAD_FAILURE"),
        ("fp-2", 1, "DOWNLOAD_FAILURE"),
    ]
    assert rows[0].file_id == fid and rows[0].http_status == 503
    other = cat.post()
    assert error_code(_fail(signed, other, fileInfoId=fid), 404) == 200404
    assert error_code(_fail(signed, 999999999), 404) == 200404
    assert error_code(signed.post(FAILURE[0].format(post), json={"fingerprint": "x"}), 400) == 200301
    assert error_code(_fail(signed, post, httpStatus=10**12), 400) == 200301


def test_distinct_reporters_hide_the_resource_until_restored(
    signed, db, cat, post, make_user, make_token, creds, display
):
    users = [make_user() for _ in range(3)]
    tokens = [make_token(creds.app_id, u) for u in users]
    for _ in range(4):  # one reporter many times stays one reporter
        _fail(signed, post, token=tokens[0])
    _fail(signed, post, fingerprint="other", token=tokens[1])
    assert data(signed.get(f"/openapi/v2/mods/{post}"))["postId"] == post
    _fail(signed, post, token=tokens[2], path=FAILURE[2])  # the third distinct reporter
    assert error_code(signed.get(f"/openapi/v2/mods/{post}"), 404) == 200404
    assert data(signed.post("/openapi/v2/mods", json={"postIds": [post]})) == [None]
    assert post not in [m["postId"] for m in data(signed.get("/openapi/v2/mods/search"))["list"]]
    # the test's writes share one transaction (one feed position): read the feed from its start
    # with a v1 cursor (origin 0: every removal is reported; a walk from nothing would leave out
    # the removals made before it began, and here everything happened "before")
    feed = data(signed.get("/openapi/v2/mods/sync?size=200&cursor=djEuMC4w"))
    assert post in feed["deletedPostIds"] and post not in [m["postId"] for m in feed["items"]]
    with db.session() as s:
        kinds = [(e.kind, e.data["postId"]) for e in s.scalars(select(OutboxEvent))]
    assert ("resource.deleted", post) in kinds
    assert error_code(_fail(signed, post, token=tokens[0]), 404) == 200404  # hidden: no more reports
    since = (
        dt.datetime.now(dt.UTC).astimezone(dt.timezone(dt.timedelta(hours=8))).strftime("%Y-%m-%dT%H:%M:%S")
    )
    with db.session() as s, s.begin():
        assert reports.restore(s, post_id=post, display=display, resolution="mirror fixed") == 2
    with db.session() as s, s.begin(), pytest.raises(ApiError) as again:
        reports.restore(s, post_id=post, display=display, resolution="again")
    assert again.value.entry.name == "CONFLICT"
    assert data(signed.get(f"/openapi/v2/mods/{post}"))["postId"] == post
    with db.session() as s:
        kinds = [e.kind for e in s.scalars(select(OutboxEvent))]
    assert kinds[-1] == "resource.published"
    for path in RESOLVED:
        got = data(signed.get(f"{path}?since={since}&limit=10"))
        assert sorted(i["fingerprint"] for i in got) == ["fp-1", "other"]
        assert {i["resolution"] for i in got} == {"mirror fixed"}
        assert all(i["feedbackType"] == "DOWNLOAD_FAILURE" and i["postId"] == post for i in got)
    assert len(data(signed.get(f"{RESOLVED[0]}?since={since}&limit=1"))) == 1
    assert data(signed.get(f"{RESOLVED[0]}?since=2999-01-01T00:00:00")) == []
    # reporters were forgotten: two new reports do not hide it again
    _fail(signed, post, token=tokens[0])
    _fail(signed, post, token=tokens[1])
    assert data(signed.get(f"/openapi/v2/mods/{post}"))["postId"] == post


def test_named_users_are_one_vote_per_application(signed, client, checker, post, make_user, make_app):
    """User ids an application merely names (X-Proxy-User-Id, no token) and callers' addresses
    count as one vote of that application, however many it names."""
    from tests.support import SignedClient

    for _ in range(6):
        _fail(signed, post, user=make_user())
    _fail(signed, post, fingerprint="anonymous")
    assert data(signed.get(f"/openapi/v2/mods/{post}"))["postId"] == post
    other = SignedClient(client, make_app(name="second", permissions=["user:proxy"]), checker)
    _fail(other, post, user=make_user())
    assert data(signed.get(f"/openapi/v2/mods/{post}"))["postId"] == post  # two applications: two votes
    third = SignedClient(client, make_app(name="third"), checker)
    _fail(third, post)
    assert error_code(signed.get(f"/openapi/v2/mods/{post}"), 404) == 200404  # the third vote


def test_a_verified_user_is_one_vote_whatever_the_application(
    signed, client, checker, post, make_user, make_app, make_token, creds
):
    """A user acting with its own proxy token counts once, through any number of applications;
    the application's own (token-less) vote is separate."""
    from tests.support import SignedClient

    user = make_user()
    other_creds = make_app(name="second")
    other = SignedClient(client, other_creds, checker)
    _fail(signed, post, token=make_token(creds.app_id, user))
    _fail(other, post, token=make_token(other_creds.app_id, user))
    assert data(signed.get(f"/openapi/v2/mods/{post}"))["postId"] == post  # still one vote
    _fail(signed, post, fingerprint="no-token")  # the application's own vote: two
    assert data(signed.get(f"/openapi/v2/mods/{post}"))["postId"] == post
    _fail(signed, post, token=make_token(creds.app_id, make_user()))  # a second verified user: three
    assert error_code(signed.get(f"/openapi/v2/mods/{post}"), 404) == 200404
    assert error_code(_fail(signed, post, token="not-a-token"), 401) == 200211


def test_new_reports_per_application_are_limited(signed, client, checker, cat, make_app, settings, app):
    """An application opens at most MODHUB_DOWNLOAD_FAILURE_REPORTS_PER_APP_DAY new reports
    (distinct fingerprints) a day; more answer 429 / 200104 with Retry-After, while merging into a
    report it already opened still works and other applications are not affected."""
    from tests.support import SignedClient

    assert settings.download_failure_reports_per_app_day == 4
    posts = [cat.post(), cat.post()]
    for n in range(4):
        assert data(_fail(signed, posts[n % 2], fingerprint=f"fp-{n}")) is None
    refused = _fail(signed, posts[0], fingerprint="fp-9")
    assert error_code(refused, 429) == 200104
    assert 0 < int(refused.headers["Retry-After"]) <= 86400
    assert data(_fail(signed, posts[0], fingerprint="fp-0", count=3)) is None  # a merge is no new report
    other = SignedClient(client, make_app(name="second"), checker)
    assert data(_fail(other, posts[0], fingerprint="fp-9")) is None


def test_resolved_since_is_per_application_and_validated(signed, db, post, make_app, client, settings):
    from tests.support import SignedClient

    _fail(signed, post)
    with db.session() as s, s.begin():
        reports.resolve(s, post_id=post, resolution="done")
    stranger = SignedClient(client, make_app(name="other"))
    assert data(stranger.get(f"{RESOLVED[1]}?since=2000-01-01T00:00:00")) == []
    assert len(data(signed.get(f"{RESOLVED[1]}?since=2000-01-01T00:00:00"))) == 1
    for bad in ("yesterday", "2024-05-01T00:00:00%2B08:00", "0001-01-01T00:00:00"):
        assert error_code(signed.get(f"{RESOLVED[2]}?since={bad}"), 400) == 200301
    assert error_code(signed.get(f"{RESOLVED[2]}?since=2000-01-01T00:00:00&limit=500"), 400) == 200301


def test_user_feedback_snapshots_on_every_alias(signed, db, cat, post):
    fid = cat.file(post)
    for n, path in enumerate(USEFUL):
        assert (
            data(
                signed.post(
                    path.format(post),
                    json={
                        "usefulCount": 10 + n,
                        "notUsefulCount": 2,
                        "threshold": 12,
                        "fileInfoId": fid,
                        "comment": "clear",
                        "clientVersion": "launcher 2",
                    },
                )
            )
            is None
        )
    rows = [r for r in _rows(db, post) if r.kind == "USER_FEEDBACK"]
    assert [r.useful_count for r in rows] == [10, 11, 12] and rows[0].message == "clear"
    assert (
        error_code(signed.post(USEFUL[0].format(post), json={"usefulCount": -1, "notUsefulCount": 0}), 400)
        == 200301
    )
    assert (
        error_code(
            signed.post(USEFUL[1].format(999999999), json={"usefulCount": 1, "notUsefulCount": 0}), 404
        )
        == 200404
    )
