"""File detail, download-file and download-url through the app on PostgreSQL (both aliases)."""

from __future__ import annotations

import hashlib
import os

import pytest

from tests.helpers.catalog import data, error_code
from tests.helpers.files import file_paths

CONTENT = os.urandom(300_000)


@pytest.fixture()
def post(cat):
    """A listed resource post on the forge platform."""
    cat.section()
    cat.platform()
    return cat.post()


def test_detail_carries_fingerprint_hashes_and_down_info(signed, cat, post, stored):
    fid = stored(post, CONTENT)
    for path in file_paths(post, fid):
        got = data(signed.get(path))
        assert got["fileInfoId"] == fid and got["postId"] == post
        assert got["fingerprint"] == got["sha256"] == hashlib.sha256(CONTENT).hexdigest()
        assert got["hashes"] == {
            "sha1": hashlib.sha1(CONTENT).hexdigest(),
            "sha256": hashlib.sha256(CONTENT).hexdigest(),
            "sha512": hashlib.sha512(CONTENT).hexdigest(),
        }
        assert got["fileSize"] == len(CONTENT) and got["storageType"] == "DIRECT_UPLOAD"
        assert got["downInfo"] == [
            {
                "storageType": "DIRECT_UPLOAD",
                "name": "modhub",
                "url": None,
                "fileName": "模组-1.0.jar",
                "fileSize": len(CONTENT),
                "sha256": got["sha256"],
                "extractCode": None,
                "expiresAt": None,
            }
        ]
        assert got["logs"] == [] and got["runPlatformName"] == "Forge"
    listed = data(signed.get(f"/openapi/v2/mods/{post}/files"))
    assert listed[0]["hashes"] == got["hashes"] and listed[0]["fingerprint"] == got["sha256"]


def test_detail_of_a_cloud_disk_share(signed, cat, post):
    fid = cat.file(
        post,
        storage_type="CLOUD_DISK",
        sha256=None,
        file_size=None,
        external_url="https://pan.example/s/1",
        down_info=[{"type": "CLOUD_DISK", "url": "https://pan.example/s/1", "code": "mh42"}],
    )
    got = data(signed.get(file_paths(post, fid)[0]))
    assert got["fingerprint"] is None and got["hashes"] is None
    assert [(d["storageType"], d["url"], d["extractCode"]) for d in got["downInfo"]] == [
        ("CLOUD_DISK", "https://pan.example/s/1", "mh42")
    ]


def test_owner_check_unknown_and_hidden_files(signed, cat, post, stored):
    other = cat.post()
    fid = stored(post, b"x")
    hidden = stored(post, b"y", file_status="HIDDEN")
    deleted = stored(post, b"z", is_delete=True)
    private = cat.post(visibility="PRIVATE")
    of_private = stored(private, b"w")
    for path in [
        *file_paths(other, fid),
        *file_paths(post, 999_999_999),
        *file_paths(post, hidden),
        *file_paths(post, deleted),
        *file_paths(private, of_private),
        *file_paths(other, fid, "/download-file"),
        *file_paths(post, hidden, "/download-file"),
        f"/openapi/v2/resource/{other}/file/{fid}/download-url",
        "/openapi/v2/files/999999999/download-url",
    ]:
        assert error_code(signed.get(path), 404) == 200404, path


def test_download_streams_the_bytes_with_headers(signed, post, stored):
    fid = stored(post, CONTENT)
    sha = hashlib.sha256(CONTENT).hexdigest()
    for path in file_paths(post, fid, "/download-file"):
        r = signed.get(path)
        assert r.status_code == 200
        assert hashlib.sha256(r.content).hexdigest() == sha
        assert r.headers["Content-Length"] == str(len(CONTENT))
        assert r.headers["ETag"] == f'"{sha}"' and r.headers["Accept-Ranges"] == "bytes"
        assert r.headers["Content-Disposition"] == (
            "attachment; filename=\"__-1.0.jar\"; filename*=UTF-8''%E6%A8%A1%E7%BB%84-1.0.jar"
        )
        assert r.headers["Content-Type"] == "application/octet-stream"


def test_download_ranges(signed, post, stored):
    fid = stored(post, CONTENT)
    path = file_paths(post, fid, "/download-file")[1]
    size = len(CONTENT)
    r = signed.get(path, headers={"Range": "bytes=1000-1999"})
    assert r.status_code == 206 and r.content == CONTENT[1000:2000]
    assert r.headers["Content-Range"] == f"bytes 1000-1999/{size}"
    r = signed.get(path, headers={"Range": "bytes=-10"})
    assert r.status_code == 206 and r.content == CONTENT[-10:]
    r = signed.get(path, headers={"Range": f"bytes={size}-"})
    assert r.status_code == 416 and r.headers["Content-Range"] == f"bytes */{size}"
    etag = f'"{hashlib.sha256(CONTENT).hexdigest()}"'
    r = signed.get(path, headers={"Range": "bytes=0-0", "If-Range": etag})
    assert r.status_code == 206 and r.content == CONTENT[:1]
    r = signed.get(path, headers={"Range": "bytes=0-0", "If-Range": '"old"'})
    assert r.status_code == 200 and len(r.content) == size


def test_direct_link_redirects_and_cloud_disk_is_refused(signed, cat, post):
    link = cat.file(
        post, storage_type="DIRECT_LINK", sha256=None, external_url="https://dl.example.org/x.jar"
    )
    share = cat.file(post, storage_type="CLOUD_DISK", sha256=None, external_url="https://pan.example/s/2")
    for path in file_paths(post, link, "/download-file"):
        r = signed.get(path, follow_redirects=False)
        assert r.status_code == 302 and r.headers["Location"] == "https://dl.example.org/x.jar"
    for path in file_paths(post, share, "/download-file"):
        assert error_code(signed.get(path), 400) == 200320


def test_missing_bytes_answer_200420(signed, cat, post):
    fid = cat.file(post, storage_type="DIRECT_UPLOAD", object_key="cd" * 32)
    assert error_code(signed.get(file_paths(post, fid, "/download-file")[0]), 404) == 200420


def test_download_url(signed, cat, post, stored):
    link = cat.file(
        post, storage_type="DIRECT_LINK", sha256=None, external_url="https://dl.example.org/y.jar"
    )
    for path in (
        f"/openapi/v2/files/{link}/download-url",
        f"/openapi/v2/resource/{post}/file/{link}/download-url",
    ):
        assert data(signed.get(path)) == {
            "fileInfoId": link,
            "postId": post,
            "storageType": "DIRECT_LINK",
            "url": "https://dl.example.org/y.jar",
        }
    onsite = stored(post, b"on site")
    r = signed.get(f"/openapi/v2/files/{onsite}/download-url")
    assert error_code(r, 400) == 200321
