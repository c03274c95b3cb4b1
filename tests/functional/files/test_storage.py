"""The storage interface, the same cases on the disk and the S3 (moto) backends."""

from __future__ import annotations

import hashlib
import io
import os
import urllib.parse

import pytest
import requests

from modhub.app import create_app
from modhub.core.storage import DiskStorage, ObjectMissing, UrlSigner

DATA = os.urandom(700_000)  # spans several 256 KiB chunks


@pytest.fixture()
def served(storage, settings, db, quota, contract):
    """The app serving the backend under test (the disk backend's signed URLs go through it)."""
    app = create_app(settings, db=db, quota=quota, contract=contract, storage=storage)
    with app.test_client() as client:
        yield client


def fetch(client, url: str, **headers):
    """GET a download URL: an absolute one (S3 presigned) on loopback, else through the app."""
    if url.startswith("http"):
        assert urllib.parse.urlparse(url).hostname == "127.0.0.1"
        return requests.get(url, headers=headers, timeout=10)
    return client.get(url, headers=headers)


def test_put_hashes_the_streamed_bytes_and_stores_them_once(storage):
    obj = storage.put(io.BytesIO(DATA))
    assert obj.size == len(DATA)
    assert obj.key == obj.sha256 == hashlib.sha256(DATA).hexdigest()
    assert obj.sha1 == hashlib.sha1(DATA).hexdigest()
    assert obj.sha512 == hashlib.sha512(DATA).hexdigest()
    assert storage.put(io.BytesIO(DATA)) == obj
    assert storage.size(obj.key) == len(DATA)
    if isinstance(storage, DiskStorage):
        stored = [p for p in storage.root.rglob("*") if p.is_file()]
        assert stored == [storage.path(obj.key)]


@pytest.mark.parametrize(("start", "end"), [(0, None), (0, 0), (5, 262_200), (699_999, None), (100, 699_999)])
def test_open_reads_a_byte_range(storage, start, end):
    key = storage.put(io.BytesIO(DATA)).key
    got = b"".join(storage.open(key, start, end))
    assert got == DATA[start : None if end is None else end + 1]


def test_empty_object(storage):
    obj = storage.put(io.BytesIO(b""))
    assert obj.size == 0 and obj.sha256 == hashlib.sha256(b"").hexdigest()
    assert storage.size(obj.key) == 0
    assert b"".join(storage.open(obj.key)) == b""


def test_delete_and_missing_objects(storage):
    key = storage.put(io.BytesIO(b"bye")).key
    storage.delete(key)
    storage.delete(key)  # idempotent
    with pytest.raises(ObjectMissing):
        storage.size(key)
    with pytest.raises(ObjectMissing):
        b"".join(storage.open(key))
    with pytest.raises(ObjectMissing):
        storage.size("../../etc/passwd")


def test_download_url_serves_the_bytes_with_the_file_name(storage, served):
    key = storage.put(io.BytesIO(DATA)).key
    r = fetch(served, storage.url(key, expires_in=60, filename="模组 v1.jar"))
    assert r.status_code == 200
    assert hashlib.sha256(r.content).hexdigest() == key
    assert "filename*=UTF-8''%E6%A8%A1%E7%BB%84%20v1.jar" in r.headers["Content-Disposition"]


def test_disk_url_is_refused_when_tampered_expired_or_for_another_key(
    settings, db, quota, contract, tmp_path
):
    clock = [1_000_000.0]
    storage = DiskStorage(tmp_path / "files", signer=UrlSigner(b"s" * 32, clock=lambda: clock[0]))
    app = create_app(settings, db=db, quota=quota, contract=contract, storage=storage)
    a = storage.put(io.BytesIO(b"alpha")).key
    b = storage.put(io.BytesIO(b"beta")).key
    url = storage.url(a, expires_in=60, filename="a.zip")
    with app.test_client() as client:
        assert client.get(url).content == b"alpha"
        assert client.get(url.replace(a, b)).status_code == 403
        assert client.get(url.replace("a.zip", "b.zip")).status_code == 403
        assert client.get(url[:-2] + ("AA" if not url.endswith("AA") else "BB")).status_code == 403
        assert client.get(url.split("?")[0]).status_code == 403
        clock[0] += 61
        assert client.get(url).status_code == 403
        other = DiskStorage(tmp_path / "files", signer=UrlSigner(b"t" * 32))
        clock[0] -= 61
        assert client.get(other.url(a, expires_in=60)).status_code == 403


def test_disk_url_range_requests(settings, db, quota, contract, tmp_path):
    storage = DiskStorage(tmp_path / "files", signer=UrlSigner(b"s" * 32))
    app = create_app(settings, db=db, quota=quota, contract=contract, storage=storage)
    key = storage.put(io.BytesIO(DATA)).key
    url = storage.url(key, expires_in=60)
    size = len(DATA)
    with app.test_client() as c:
        whole = c.get(url)
        assert whole.headers["ETag"] == f'"{key}"' and whole.headers["Accept-Ranges"] == "bytes"
        assert whole.headers["Content-Length"] == str(size)
        r = c.get(url, headers={"Range": "bytes=10-19"})
        assert r.status_code == 206 and r.content == DATA[10:20]
        assert r.headers["Content-Range"] == f"bytes 10-19/{size}"
        assert r.headers["Content-Length"] == "10"
        r = c.get(url, headers={"Range": "bytes=-5"})
        assert r.status_code == 206 and r.content == DATA[-5:]
        r = c.get(url, headers={"Range": f"bytes={size - 1}-"})
        assert r.status_code == 206 and r.content == DATA[-1:]
        r = c.get(url, headers={"Range": f"bytes=0-{size + 50}"})
        assert r.status_code == 206 and r.content == DATA
        r = c.get(url, headers={"Range": f"bytes={size}-"})
        assert r.status_code == 416 and r.headers["Content-Range"] == f"bytes */{size}"
        r = c.get(url, headers={"Range": "bytes=5-1"})
        assert r.status_code == 200 and len(r.content) == size
        r = c.get(url, headers={"Range": "bytes=0-1,5-6"})
        assert r.status_code == 200 and len(r.content) == size
        r = c.get(url, headers={"Range": "bytes=0-3", "If-Range": f'"{key}"'})
        assert r.status_code == 206 and r.content == DATA[:4]
        r = c.get(url, headers={"Range": "bytes=0-3", "If-Range": '"stale"'})
        assert r.status_code == 200 and len(r.content) == size
        r = c.get(url, headers={"If-None-Match": f'"{key}"'})
        assert r.status_code == 304 and r.content == b""
