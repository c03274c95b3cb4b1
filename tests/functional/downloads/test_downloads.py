"""download-auth (v2, v1), its temporary links on both storage backends, the entitlement rules,
download-file's gate, and download counting flushed into the counters and daily statistics."""

from __future__ import annotations

import hashlib
import os
import time
import urllib.parse

import pytest
from sqlalchemy import select

from models.catalog.tables import DailyStat
from models.downloads import access, counting, links
from tests.helpers.catalog import data, error_code
from tests.helpers.downloads import fetch

CONTENT = os.urandom(200_000)
SHA = hashlib.sha256(CONTENT).hexdigest()
AUTH_PATHS = ["/openapi/v2/resource/{}/download-auth", "/openapi/v1/resource/{}/download-auth"]


def _auth(signed, post_id, body=None, headers=None, path=AUTH_PATHS[0]):
    return data(signed.post(path.format(post_id), json=body or {}, headers=headers or {}))


def _bytes_of(client, url: str, backend: str, **kwargs):
    """The bytes behind a temporary link: streamed (disk) or through the S3 redirect."""
    r = fetch(client, url, follow_redirects=False, **kwargs)
    if backend == "s3" and r.status_code == 302:
        import requests

        return requests.get(r.headers["Location"], timeout=30)
    return r


def test_download_auth_gives_a_working_link_on_both_aliases_and_backends(
    signed, client, post, stored, backend
):
    fid = stored(post, CONTENT)
    for path in AUTH_PATHS:
        got = _auth(signed, post, {"fileInfoId": fid}, path=path)
        assert got["fileInfoId"] == fid and got["deniedReason"] is None
        [info] = got["downloadInfos"]
        assert info["storageType"] == "DIRECT_UPLOAD" and info["sha256"] == SHA
        assert info["expiresAt"] and "/dl/" in info["url"]
        r = _bytes_of(client, info["url"], backend)
        assert r.status_code == 200 and hashlib.sha256(r.content).hexdigest() == SHA
    default = _auth(signed, post)  # no fileInfoId: the default (newest) file
    assert default["fileInfoId"] == fid


def test_link_range_and_etag_on_disk(signed, client, post, stored):
    fid = stored(post, CONTENT)
    url = _auth(signed, post, {"fileInfoId": fid})["downloadInfos"][0]["url"]
    r = fetch(client, url, headers={"Range": "bytes=10-19"})
    assert r.status_code == 206 and r.content == CONTENT[10:20]
    assert r.headers["ETag"] == f'"{SHA}"'


def test_tampered_expired_and_other_app_links(signed, client, post, stored, make_app, settings):
    fid = stored(post, CONTENT)
    url = _auth(signed, post, {"fileInfoId": fid})["downloadInfos"][0]["url"]
    base, query = url.split("?")
    q = dict(urllib.parse.parse_qsl(query))
    for change in (
        {"a": str(int(q["a"]) + 1)},
        {"u": "7"},
        {"e": str(int(q["e"]) + 60)},
        {"s": q["s"][:-2] + "AA"},
        {"a": "x"},
    ):
        r = fetch(client, f"{base}?{urllib.parse.urlencode({**q, **change})}")
        assert error_code(r, 403) == 200340, change
    other = stored(post, b"other bytes")
    assert error_code(fetch(client, url.replace(f"/dl/{fid}?", f"/dl/{other}?")), 403) == 200340
    old, _ = links.make(
        settings,
        file_id=fid,
        app_id=signed.creds.app_id,
        user_id=None,
        now=time.time() - 2 * links.TTL_SECONDS,
    )
    assert error_code(fetch(client, old), 403) == 200341
    stranger = make_app(name="another app")
    r = fetch(client, url, headers={"X-API-Key": stranger.api_key})
    assert error_code(r, 403) == 200342
    assert fetch(client, url, headers={"X-API-Key": signed.creds.api_key}).status_code == 200


def test_paid_resource_needs_an_entitlement(signed, client, cat, db, stored, make_user, make_token):
    cat.section()
    cat.platform()
    paid = cat.post(is_paid=True)
    fid = stored(paid, CONTENT)
    buyer, stranger = make_user(), make_user()
    anonymous = _auth(signed, paid)
    assert anonymous["fileInfoId"] == fid and anonymous["downloadInfos"] == []
    assert anonymous["deniedReason"] == "DOWNLOAD_USER_REQUIRED"
    got = _auth(signed, paid, {"proxyUserId": buyer})
    assert got["downloadInfos"] == [] and got["deniedReason"] == "ENTITLEMENT_REQUIRED"
    for path in (
        f"/openapi/v2/mods/{paid}/files/{fid}/download-file",
        f"/openapi/v2/resource/{paid}/file/{fid}/download-file",
    ):
        assert error_code(signed.get(path), 403) == 200344
        assert error_code(signed.get(path, headers={"X-Proxy-User-Id": str(buyer)}), 403) == 200343
    with db.session() as s:
        assert access.grant(s, user_id=buyer, post_id=paid) is True
        assert access.grant(s, user_id=buyer, post_id=paid) is False
        s.commit()
    for body, headers in (
        ({"proxyUserId": buyer}, {}),
        ({}, {"X-Proxy-Access-Token": make_token(signed.creds.app_id, buyer)}),
    ):
        got = _auth(signed, paid, body, headers)
        assert got["deniedReason"] is None
        url = got["downloadInfos"][0]["url"]
        assert f"u={buyer}" in url
        assert hashlib.sha256(fetch(client, url).content).hexdigest() == SHA
    r = signed.get(
        f"/openapi/v2/mods/{paid}/files/{fid}/download-file", headers={"X-Proxy-User-Id": str(buyer)}
    )
    assert r.status_code == 200 and r.content == CONTENT
    assert _auth(signed, paid, {"proxyUserId": stranger})["deniedReason"] == "ENTITLEMENT_REQUIRED"
    with db.session() as s:  # a revoked entitlement stops the links already handed out
        access.revoke(s, user_id=buyer, post_id=paid)
        s.commit()
    assert error_code(fetch(client, url), 403) == 200343


def test_registered_and_members_permissions(signed, cat, stored, make_user, db):
    cat.section()
    cat.platform()
    registered = cat.post(download_permission="REGISTERED")
    members = cat.post(download_permission="MEMBERS")
    stored(registered, b"r")
    stored(members, b"m")
    user = make_user()
    assert _auth(signed, registered)["deniedReason"] == "DOWNLOAD_USER_REQUIRED"
    assert _auth(signed, registered, {"proxyUserId": user})["deniedReason"] is None
    assert _auth(signed, members, {"proxyUserId": user})["deniedReason"] == "ENTITLEMENT_REQUIRED"
    cat.author(members, user)
    assert _auth(signed, members, {"proxyUserId": user})["deniedReason"] is None


def test_download_auth_errors(signed, make_app, client, post, stored, make_user, cat):
    fid = stored(post, CONTENT)
    other = cat.post()
    assert (
        error_code(signed.post(f"/openapi/v2/resource/{other}/download-auth", json={"fileInfoId": fid}), 404)
        == 200404
    )
    assert error_code(signed.post("/openapi/v2/resource/999999999/download-auth", json={}), 404) == 200404
    assert (
        error_code(
            signed.post(f"/openapi/v2/resource/{post}/download-auth", json={"fileInfoId": 999999999}), 404
        )
        == 200404
    )
    empty = cat.post()
    assert error_code(signed.post(f"/openapi/v2/resource/{empty}/download-auth", json={}), 404) == 200404
    assert (
        error_code(
            signed.post(f"/openapi/v2/resource/{post}/download-auth", json={"proxyUserId": 999999999}), 401
        )
        == 200215
    )
    plain = make_app(name="no proxy permission")
    from tests.support import SignedClient

    r = SignedClient(client, plain).post(
        f"/openapi/v2/resource/{post}/download-auth", json={"proxyUserId": make_user()}
    )
    assert error_code(r, 403) == 200205


def test_external_sources_follow_the_on_site_copy(signed, cat, post):
    link = cat.file(
        post, storage_type="DIRECT_LINK", sha256=None, external_url="https://dl.example.org/x.jar"
    )
    share = cat.file(
        post,
        storage_type="CLOUD_DISK",
        sha256=None,
        external_url="https://pan.example/s/1",
        down_info=[{"type": "CLOUD_DISK", "url": "https://pan.example/s/1", "code": "k1"}],
    )
    infos = _auth(signed, post, {"fileInfoId": link})["downloadInfos"]
    assert [(i["storageType"], i["url"], i["expiresAt"]) for i in infos] == [
        ("DIRECT_LINK", "https://dl.example.org/x.jar", None)
    ]
    infos = _auth(signed, post, {"fileInfoId": share})["downloadInfos"]
    assert [(i["storageType"], i["extractCode"]) for i in infos] == [("CLOUD_DISK", "k1")]


def test_downloads_are_counted_once_per_client_per_window_and_flushed(
    signed, client, cat, post, stored, platform, db, make_user
):
    fid = stored(post, CONTENT)
    path = f"/openapi/v2/mods/{post}/files/{fid}/download-file"
    user = make_user()
    for _ in range(3):  # the same address three times: one count
        assert signed.get(path).status_code == 200
    signed.get(path, headers={"X-Proxy-User-Id": str(user)})  # another client: the user
    signed.get(path, headers={"X-Proxy-User-Id": str(user), "Range": "bytes=5-9"})  # resumed: no
    url = _auth(signed, post, {"fileInfoId": fid})["downloadInfos"][0]["url"]
    fetch(client, url, headers={"X-Forwarded-For": "203.0.113.9"})  # untrusted header: same peer
    counter = platform.download_counter
    assert sum(counter.take().values()) == 2
    for _ in range(2):
        signed.get(path, headers={"X-Proxy-User-Id": str(make_user())})
    assert counting.flush(platform.db, counter) == 2
    assert counting.flush(platform.db, counter) == 0
    detail = data(signed.get(f"/openapi/v2/mods/{post}"))
    assert detail["downloadCount"] == 2 and detail["stats"]["downloadsLast24h"] == 2
    files = data(signed.get(f"/openapi/v2/mods/{post}/files"))
    assert files[0]["downloadCount"] == 2
    with db.session() as s:
        assert sum(s.scalars(select(DailyStat.downloads).where(DailyStat.post_id == post))) == 2
    stats = data(signed.get(f"/openapi/v2/stats/mods/{post}"))
    assert stats["totalDownloads"] == 2


@pytest.mark.parametrize("counter_kind", ["redis", "local"])
def test_counter_rules(redis_client, counter_kind):
    import datetime as dt
    import uuid

    counter = (
        counting.RedisCounter(redis_client, f"modhub-test:{uuid.uuid4().hex}")
        if counter_kind == "redis"
        else counting.LocalCounter()
    )
    day = dt.date(2026, 11, 23)
    hits = [counter.hit(post_id=1, file_id=2, client_key=k, day=day) for k in ("a", "a", "b")]
    assert hits == [True, False, True]
    assert counter.take() == {"1:2:2026-11-23": 2}
    counter.give_back({"1:2:2026-11-23": 5})
    assert counter.take() == {"1:2:2026-11-23": 5} and counter.take() == {}


def test_download_path_round_trips(signed, client, post, stored, pg_engine, monkeypatch):
    """A warmed download-file costs two Redis round trips (the quota, the download count) and
    three SELECTs (file, resource, and the session's application snapshot); a link costs one
    Redis round trip (no quota) and three SELECTs (application, file, resource)."""
    from redis.connection import AbstractConnection
    from sqlalchemy import event

    fid = stored(post, CONTENT)
    path = f"/openapi/v2/mods/{post}/files/{fid}/download-file"
    url = _auth(signed, post, {"fileInfoId": fid})["downloadInfos"][0]["url"]
    signed.get(path)
    fetch(client, url)
    calls = {"redis": 0, "sql": 0}
    original = AbstractConnection.send_packed_command

    def counted(self, *args, **kwargs):  # every command or pipeline written to Redis (the
        calls["redis"] += 1  # quota's script goes straight to a connection of its own)
        return original(self, *args, **kwargs)

    def on_sql(conn, cursor, statement, *_):
        if statement.lstrip().upper().startswith("SELECT"):
            calls["sql"] += 1

    monkeypatch.setattr(AbstractConnection, "send_packed_command", counted)
    event.listen(pg_engine, "before_cursor_execute", on_sql)
    try:
        assert signed.get(path, headers={"X-Proxy-User-Id": ""}).status_code == 200
        download_file = dict(calls)
        calls.update(redis=0, sql=0)
        assert fetch(client, url).status_code == 200
        link = dict(calls)
    finally:
        event.remove(pg_engine, "before_cursor_execute", on_sql)
    assert download_file["redis"] == 2 and link["redis"] == 1
    assert download_file["sql"] == 3 and link["sql"] == 3, (download_file, link)
