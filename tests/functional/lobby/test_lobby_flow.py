"""The lobby flow over HTTP on PostgreSQL, on the disk and the S3 (moto) backends."""

from __future__ import annotations

import hashlib
import os
import time

from tests.helpers.catalog import data, error_code
from tests.helpers.lobby import BASE, fetch, item, post_body

A, B = os.urandom(300_001), os.urandom(70_000)
SHA_A, SHA_B = hashlib.sha256(A).hexdigest(), hashlib.sha256(B).hexdigest()


def test_reserve_upload_publish_manifest_and_fetch(owner, client, backend):
    got = data(
        owner.reserve(0, [item(A), item(B, "config/b.toml", resourceType="config", environmentSide="SERVER")])
    )
    assert got["postId"] == 0 and [r["status"] for r in got["results"]] == ["NEED_UPLOAD"] * 2
    for r, content in zip(got["results"], (A, B), strict=True):
        up = data(owner.upload(0, r["reservedResourceId"], r["uploadToken"], content))
        assert up["resourceId"] == r["reservedResourceId"]
        assert up["sha256"] == up["objectKey"] == hashlib.sha256(content).hexdigest()
        assert up["downloadUrl"] and up["downloadUrlExpiresAt"] > 0
    resources = [
        {
            "source": "USER_UPLOAD",
            "sha256": SHA_A,
            "name": "a.jar",
            "resourceType": "mod",
            "clientInstallPath": "mods/a.jar",
            "environmentSide": "BOTH",
            "version": "1.0",
        },
        {
            "source": "USER_UPLOAD",
            "sha256": SHA_B,
            "name": "b.toml",
            "clientInstallPath": "config/b.toml",
            "environmentSide": "SERVER",
        },
        {
            "source": "BUILTIN",
            "sha256": "c" * 64,
            "sizeBytes": 5,
            "name": "ext.zip",
            "environmentSide": "CLIENT",
            "downloadUrl": "https://cdn.example/ext.zip",
            "downloadUrlExpiresAt": "2030-01-01 08:00:00",
        },
    ]
    post_id = data(owner.publish(post_body(resources=resources)))
    r = client.get(f"{BASE}/{post_id}/manifest")  # anonymous: no key, no signature
    assert r.status_code == 200
    manifest = r.json()["data"]
    assert manifest["postId"] == post_id and manifest["serverPassword"] == "pw"
    assert manifest["serverVersion"] == "1.20.1,1.20.2" and manifest["serverPort"] == 25565
    items = manifest["items"]
    assert [(i["source"], i["sha256"], i["environmentSide"]) for i in items] == [
        ("BUILTIN", SHA_A, "BOTH"),
        ("BUILTIN", "c" * 64, "CLIENT"),
    ]  # SERVER-only left out
    assert items[0]["sizeBytes"] == len(A) and items[0]["clientInstallPath"] == "mods/a.jar"
    assert hashlib.sha256(fetch(client, items[0]["downloadUrl"])).hexdigest() == SHA_A
    assert items[1]["downloadUrl"] == "https://cdn.example/ext.zip"
    assert items[1]["downloadUrlExpiresAt"] == "2030-01-01 08:00:00"
    # ETag / 304 until the URLs are refreshed
    etag = r.headers["ETag"]
    again = client.get(f"{BASE}/{post_id}/manifest", headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.content == b""
    time.sleep(1.1)  # times and URL signatures have a one-second resolution
    assert data(owner.post(f"/{post_id}/refresh-urls")) == 2  # A and the SERVER-only B
    fresh = client.get(f"{BASE}/{post_id}/manifest", headers={"If-None-Match": etag})
    assert fresh.status_code == 200 and fresh.headers["ETag"] != etag
    url = fresh.json()["data"]["items"][0]["downloadUrl"]
    assert hashlib.sha256(fetch(client, url)).hexdigest() == SHA_A


def test_second_reserve_of_stored_bytes_is_reuse_across_users(owner, stranger, client, backend):
    r = data(owner.reserve(0, [item(A)]))["results"][0]
    data(owner.upload(0, r["reservedResourceId"], r["uploadToken"], A))
    again = data(stranger.reserve(0, [item(A, "mods/other.jar")]))["results"][0]
    assert again["status"] == "REUSE" and again["objectKey"] == SHA_A and again["uploadToken"] is None
    assert hashlib.sha256(fetch(client, again["downloadUrl"])).hexdigest() == SHA_A
    wrong_size = data(stranger.reserve(0, [{**item(A), "sizeBytes": 3}]))["results"][0]
    assert wrong_size["status"] == "REJECTED" and wrong_size["rejectReason"].startswith("SIZE_MISMATCH")


def test_update_replaces_the_list_and_close_hides_the_manifest(owner, client, backend):
    r = data(owner.reserve(0, [item(A), item(B, "mods/b.jar")]))["results"]
    for res, content in zip(r, (A, B), strict=True):
        data(owner.upload(0, res["reservedResourceId"], res["uploadToken"], content))
    up = {"source": "USER_UPLOAD", "clientInstallPath": "mods/x.jar"}
    post_id = data(owner.publish(post_body(resources=[{**up, "sha256": SHA_A}])))
    assert data(
        owner.post(
            f"/{post_id}/update",
            json=post_body(
                mainName="Renamed",
                serverPassword=None,
                resources=[{**up, "sha256": SHA_B}, {**up, "sha256": SHA_B, "clientInstallPath": "b2.jar"}],
            ),
        )
    )
    m = data(client.get(f"{BASE}/{post_id}/manifest"))
    assert m["mainName"] == "Renamed" and m["serverPassword"] == ""
    assert [(i["sha256"], i["clientInstallPath"]) for i in m["items"]] == [
        (SHA_B, "mods/x.jar"),
        (SHA_B, "b2.jar"),
    ]
    # A dropped upload stays reserved under the post: it can be listed again without upload
    assert data(owner.post(f"/{post_id}/update", json=post_body(resources=[{**up, "sha256": SHA_A}])))
    assert [i["sha256"] for i in data(client.get(f"{BASE}/{post_id}/manifest"))["items"]] == [SHA_A]
    assert data(owner.post(f"/{post_id}/close")) is True
    assert error_code(client.get(f"{BASE}/{post_id}/manifest"), 404) == 200404
    assert error_code(owner.post(f"/{post_id}/close"), 404) == 200404
    assert error_code(client.get(f"{BASE}/999999999/manifest"), 404) == 200404


def test_owner_checks(owner, stranger):
    post_id = data(owner.publish(post_body()))
    for path, kwargs in (
        (f"/{post_id}/update", {"json": post_body()}),
        (f"/{post_id}/close", {}),
        (f"/{post_id}/refresh-urls", {}),
        (f"/{post_id}/resources/reserve-batch", {"json": {"items": [item(A)]}}),
    ):
        assert error_code(stranger.post(path, **kwargs), 404) == 200404, path
    r = data(owner.reserve(post_id, [item(A)]))["results"][0]
    rid = r["reservedResourceId"]
    assert error_code(stranger.post(f"/{post_id}/resources/{rid}/cancel"), 404) == 200404
    assert error_code(stranger.upload(post_id, rid, r["uploadToken"], A), 404) == 200404
    assert error_code(owner.upload(0, rid, r["uploadToken"], A), 404) == 200404  # wrong post
    assert data(owner.upload(post_id, rid, r["uploadToken"], A))["sha256"] == SHA_A


def test_token_is_single_use_and_bound_to_its_row(owner, backend):
    r = data(owner.reserve(0, [item(A), item(B, "b.jar")]))["results"]
    a, b = r
    assert error_code(owner.upload(0, a["reservedResourceId"], b["uploadToken"], A), 403) == 200600
    assert error_code(owner.upload(0, a["reservedResourceId"], "nope", A), 403) == 200600
    data(owner.upload(0, a["reservedResourceId"], a["uploadToken"], A))
    assert error_code(owner.upload(0, a["reservedResourceId"], a["uploadToken"], A), 403) == 200600


def test_mismatch_stores_nothing_and_voids_the_reservation(owner, backend):
    a, b = os.urandom(50_000), os.urandom(60_000)  # bytes no other test stored
    r = data(owner.reserve(0, [item(a), item(b, "b.jar")]))["results"]
    wrong = a[:-1] + bytes([a[-1] ^ 1])
    assert error_code(owner.upload(0, r[0]["reservedResourceId"], r[0]["uploadToken"], wrong), 400) == 200601
    assert (
        error_code(owner.upload(0, r[1]["reservedResourceId"], r[1]["uploadToken"], b + b"x"), 400) == 200602
    )
    # the reservation is void: its row is gone
    assert error_code(owner.upload(0, r[1]["reservedResourceId"], r[1]["uploadToken"], b), 404) == 200404
    for key in (
        hashlib.sha256(a).hexdigest(),
        hashlib.sha256(wrong).hexdigest(),
        hashlib.sha256(b).hexdigest(),
        hashlib.sha256(b + b"x").hexdigest(),
    ):
        assert not _stored(backend, key), key
    again = data(owner.reserve(0, [item(a)]))["results"][0]
    assert again["status"] == "NEED_UPLOAD"  # the claim was released


def _stored(storage, key: str) -> bool:
    from modhub.core.storage import ObjectMissing

    try:
        storage.size(key)
    except ObjectMissing:
        return False
    return True


def test_rejections_per_item(owner, settings):
    items = [
        item(A, "../evil.jar"),
        item(A, "/etc/passwd"),
        item(A, "C:/x.jar"),
        item(A, "mods\\a.jar"),
        {**item(A), "sha256": "A" * 64},
        {**item(A), "sha256": "zz"},
        {**item(A), "resourceType": "virus"},
        {**item(A), "sizeBytes": -1},
        {**item(A), "sizeBytes": settings.max_upload_bytes},
        item(A),
        item(A, "mods/dup.jar"),
    ]
    got = data(owner.reserve(0, items))["results"]
    reasons = [(g["status"], (g["rejectReason"] or "").split(":")[0]) for g in got]
    assert reasons == [("REJECTED", "UNSAFE_PATH")] * 4 + [
        ("REJECTED", "BAD_SHA256"),
        ("REJECTED", "BAD_SHA256"),
        ("REJECTED", "BAD_RESOURCE_TYPE"),
        ("REJECTED", "BAD_SIZE"),
        ("REJECTED", "TOO_LARGE"),
        ("NEED_UPLOAD", ""),
        ("REJECTED", "DUPLICATE_IN_BATCH"),
    ]
    assert got[0]["sha256"] == SHA_A and got[4]["sha256"] is None
    too_many = owner.reserve(0, [item(A)] * 51)
    assert error_code(too_many, 400) == 200301


def test_second_reservation_while_uploading_is_upload_in_progress(owner, stranger):
    first = data(owner.reserve(0, [item(A)]))["results"][0]
    second = data(stranger.reserve(0, [item(A)]))["results"][0]
    assert first["status"] == "NEED_UPLOAD"
    assert second["status"] == "REJECTED" and second["rejectReason"].startswith("UPLOAD_IN_PROGRESS")
    assert data(owner.post(f"/0/resources/{first['reservedResourceId']}/cancel")) is True
    assert data(stranger.reserve(0, [item(A)]))["results"][0]["status"] == "NEED_UPLOAD"


def test_cancel_pending_deletes_uploaded_becomes_tombstone(owner, client):
    r = data(owner.reserve(0, [item(A)]))["results"][0]
    data(owner.upload(0, r["reservedResourceId"], r["uploadToken"], A))
    post_id = data(
        owner.publish(
            post_body(
                resources=[{"source": "USER_UPLOAD", "sha256": SHA_A, "clientInstallPath": "mods/a.jar"}]
            )
        )
    )
    rid = data(client.get(f"{BASE}/{post_id}/manifest"))["items"][0]["id"]
    assert data(owner.post(f"/{post_id}/resources/{rid}/cancel")) is True
    assert data(owner.post(f"/{post_id}/resources/{rid}/cancel")) is False  # already a tombstone
    assert data(client.get(f"{BASE}/{post_id}/manifest"))["items"] == []
    assert (
        error_code(owner.publish(post_body(resources=[{"source": "USER_UPLOAD", "sha256": "d" * 64}])), 400)
        == 200604
    )
    assert (
        error_code(
            owner.publish(
                post_body(
                    resources=[{"source": "USER_UPLOAD", "sha256": SHA_A, "clientInstallPath": "../../x"}]
                )
            ),
            400,
        )
        == 200606
    )
    assert (
        error_code(
            owner.publish(
                post_body(
                    resources=[{"source": "COMMUNITY", "communityPostId": 999999, "communityFileId": 1}]
                )
            ),
            400,
        )
        == 200605
    )


def test_a_lobby_post_is_a_server_post_its_status_events_apply(owner, db, display):
    from sqlalchemy import select

    from models.catalog.lifecycle import set_server_status
    from models.webhooks.tables import OutboxEvent

    post_id = data(owner.publish(post_body()))
    with db.session() as session:
        assert set_server_status(session, post_id=post_id, online=True, display=display)
        session.commit()
    assert data(owner.post(f"/{post_id}/close")) is True  # an online server goes offline first
    with db.session() as session:
        events = [
            (e.kind, e.data["postId"])
            for e in session.scalars(select(OutboxEvent).order_by(OutboxEvent.id))
            if e.data.get("postId") == post_id
        ]
    assert events == [("server.status.online", post_id), ("server.status.offline", post_id)]


def test_tampered_and_expired_download_urls_are_refused(owner, client, platform):
    """Disk backend: the app checks its own HMAC. (The moto server does not verify presigned
    signatures, so the S3 side of this check belongs to a real S3 store and is not tested here.)"""
    import urllib.parse

    content = os.urandom(40_000)
    key = hashlib.sha256(content).hexdigest()
    r = data(owner.reserve(0, [item(content)]))["results"][0]
    url = data(owner.upload(0, r["reservedResourceId"], r["uploadToken"], content))["downloadUrl"]
    assert fetch(client, url) == content
    query = urllib.parse.parse_qs(urllib.parse.urlsplit(url).query)
    sig, expires = query["s"][0], query["e"][0]
    tampered = [
        url.replace(sig, ("A" if sig[0] != "A" else "B") + sig[1:]),
        url.replace(key, hashlib.sha256(b"other").hexdigest()),
        url.replace("e=" + expires, "e=" + str(int(expires) + 3600)),
        url.replace("n=a.jar", "n=b.jar"),
    ]
    expired = platform.storage.url(key, expires_in=-1, filename="a.jar")
    for bad in [*tampered, expired]:
        assert bad != url and client.get(bad).status_code == 403, bad


def test_publish_fields_are_validated(owner):
    for fields in (
        {"serverIp": "bad host!"},
        {"serverIp": "-x.example"},
        {"sectionCode": "nogame"},
        {"runPlatform": "nope"},
        {"serverPort": 70000},
        {"serverPort": 0},
        {"mainName": ""},
    ):
        assert error_code(owner.publish(post_body(**fields)), 400) == 200301, fields
    for ip in ("10.0.0.1", "2001:db8::1", "mc.example.org"):
        assert isinstance(data(owner.publish(post_body(serverIp=ip, runPlatform="forge"))), int)


def test_a_time_before_the_year_1000_comes_back_in_its_four_digit_form(owner, signed):
    """A time field takes `yyyy-MM-dd HH:mm:ss` (its pattern: four digits of year) and shows it in
    the same form: a link expiring in 0999 reads back as 0999, not 999 (checked against the
    contract by the signed client)."""
    builtin = {
        "source": "BUILTIN",
        "sha256": "d" * 64,
        "sizeBytes": 5,
        "name": "old.zip",
        "environmentSide": "BOTH",
        "downloadUrl": "https://cdn.example/old.zip",
        "downloadUrlExpiresAt": "0999-12-31 23:59:59",
    }
    post_id = data(owner.publish(post_body(resources=[builtin])))
    manifest = data(signed.get(f"{BASE}/{post_id}/manifest"))
    assert [i["downloadUrlExpiresAt"] for i in manifest["items"]] == ["0999-12-31 23:59:59"]
