"""Deduplication and the sweep: shared bytes survive the removal of one post; a killed upload
leaves no UPLOADED row and no orphan bytes after the sweep."""

from __future__ import annotations

import datetime as dt
import hashlib
import os

from sqlalchemy import select

from models.lobby.sweep import sweep
from models.lobby.tables import LobbyResource
from modhub.core.storage import ObjectMissing
from tests.helpers.catalog import data
from tests.helpers.lobby import item, post_body

A = os.urandom(200_000)
SHA_A = hashlib.sha256(A).hexdigest()
LATER = dt.datetime.now(dt.UTC) + dt.timedelta(days=2)


def _has(storage, key: str) -> bool:
    try:
        return storage.size(key) >= 0
    except ObjectMissing:
        return False


def _listed(sha: str) -> dict:
    return {"source": "USER_UPLOAD", "sha256": sha, "clientInstallPath": "mods/a.jar"}


def test_removing_one_post_keeps_bytes_another_uses(owner, stranger, db, backend):
    r = data(owner.reserve(0, [item(A)]))["results"][0]
    data(owner.upload(0, r["reservedResourceId"], r["uploadToken"], A))
    first = data(owner.publish(post_body(resources=[_listed(SHA_A)])))
    reuse = data(stranger.reserve(0, [item(A)]))["results"][0]
    assert reuse["status"] == "REUSE"
    second = data(stranger.publish(post_body(resources=[_listed(SHA_A)])))
    assert data(owner.post(f"/{first}/close")) is True
    assert sweep(db, backend, now=LATER, grace=dt.timedelta(0)).contents == 0
    assert _has(backend, SHA_A)  # the second post still lists it
    assert data(stranger.post(f"/{second}/close")) is True
    assert sweep(db, backend, now=LATER, grace=dt.timedelta(0)).contents == 1
    assert not _has(backend, SHA_A)
    again = data(owner.reserve(0, [item(A)]))["results"][0]
    assert again["status"] == "NEED_UPLOAD"  # nothing stale claims it is stored


def test_tombstone_and_grace_period(owner, db, backend):
    r = data(owner.reserve(0, [item(A)]))["results"][0]
    data(owner.upload(0, r["reservedResourceId"], r["uploadToken"], A))
    assert data(owner.post(f"/0/resources/{r['reservedResourceId']}/cancel")) is True
    assert sweep(db, backend).contents == 0  # within the grace period
    assert _has(backend, SHA_A)
    assert sweep(db, backend, now=LATER, grace=dt.timedelta(0)).contents == 1
    assert not _has(backend, SHA_A)


def test_a_killed_upload_leaves_nothing_after_the_sweep(owner, db, backend, platform):
    """The server died mid-upload: the token was used, a spool file was left behind."""
    from models.lobby import uploads

    r = data(owner.reserve(0, [item(A)]))["results"][0]
    rid = r["reservedResourceId"]
    uploads.claim(
        db,
        user_id=owner.user_id,
        post_id=0,
        resource_id=rid,
        token=r["uploadToken"],
        now=dt.datetime.now(dt.UTC),
    )
    spool = getattr(backend, "spool_dir", None)
    spool.mkdir(parents=True, exist_ok=True)
    leftover = spool / "upload-killed"
    leftover.write_bytes(A[:1000])
    old = (dt.datetime.now() - dt.timedelta(hours=7)).timestamp()
    os.utime(leftover, (old, old))
    result = sweep(db, backend, now=LATER, grace=dt.timedelta(0))
    assert result.reservations == 1 and result.spool_files == 1 and not leftover.exists()
    with db.session() as session:
        assert session.scalars(select(LobbyResource).where(LobbyResource.sha256 == SHA_A)).all() == []
    assert not _has(backend, SHA_A)
    assert data(owner.reserve(0, [item(A)]))["results"][0]["status"] == "NEED_UPLOAD"


def test_cancel_while_uploading_leaves_no_orphan_bytes(owner, db, backend):
    """The reservation is cancelled between the start of its upload and its end."""
    import io

    from models.lobby import uploads
    from modhub.core.errors import ApiError

    content = os.urandom(30_000)
    sha = hashlib.sha256(content).hexdigest()
    r = data(owner.reserve(0, [item(content)]))["results"][0]
    rid, now = r["reservedResourceId"], dt.datetime.now(dt.UTC)
    expected = uploads.claim(
        db, user_id=owner.user_id, post_id=0, resource_id=rid, token=r["uploadToken"], now=now
    )
    obj = uploads.store(db, backend, resource_id=rid, expected=expected, reader=io.BytesIO(content))
    assert data(owner.post(f"/0/resources/{rid}/cancel")) is True
    try:
        uploads.finish(db, backend, resource_id=rid, obj=obj, now=now)
    except ApiError as exc:
        assert exc.code == 200603
    else:
        raise AssertionError("finish must refuse a released reservation")
    assert not _has(backend, sha)
