"""Issue 28 items 9 and 17: If-None-Match compares weakly wherever an ETag is served; an unknown
path, a trailing slash included, is a plain 404 envelope and never a redirect."""

from __future__ import annotations

import hashlib

import pytest

from modhub.etags import none_match
from tests.helpers.downloads import fetch

CONTENT = b"PK\x03\x04 weak etags"
SHA = hashlib.sha256(CONTENT).hexdigest()


@pytest.mark.parametrize(
    "header,hit",
    [
        (f'"{SHA}"', True),
        (f'W/"{SHA}"', True),
        (f'"other", W/"{SHA}"', True),
        ("*", True),
        ('"other"', False),
        ("", False),
        (None, False),
        ("\xb9", False),
    ],
)
def test_none_match_is_the_weak_comparison(header, hit):
    assert none_match(header, f'"{SHA}"') is hit
    assert none_match(header, f'W/"{SHA}"') is hit


@pytest.fixture()
def download(signed, cat, stored, creds):
    """A listed post with a stored file, and the signed download-file path of it."""
    cat.section()
    cat.platform()
    post = cat.post()
    file_id = stored(post, CONTENT)
    return f"/openapi/v2/resource/{post}/file/{file_id}/download-file", post, file_id


def test_weak_form_of_a_download_etag_answers_304(signed, client, download):
    path, post, file_id = download
    first = signed.get(path)
    assert first.status_code == 200 and first.headers["ETag"] == f'"{SHA}"'
    for tag in (f'W/"{SHA}"', f'"{SHA}"', f'"x", W/"{SHA}"'):
        again = signed.get(path, headers={"If-None-Match": tag})
        assert again.status_code == 304 and again.content == b"", tag
    assert signed.get(path, headers={"If-None-Match": 'W/"other"'}).status_code == 200
    link = signed.post(f"/openapi/v2/resource/{post}/download-auth", json={"fileInfoId": file_id})
    url = link.json()["data"]["downloadInfos"][0]["url"]
    assert fetch(client, url, headers={"If-None-Match": f'W/"{SHA}"'}).status_code == 304


def test_strong_form_of_a_tagged_read_answers_304(signed):
    first = signed.get("/openapi/v2/games")
    tag = first.headers["ETag"]
    assert tag.startswith('W/"')
    assert signed.get("/openapi/v2/games", headers={"If-None-Match": tag[2:]}).status_code == 304


@pytest.mark.parametrize(
    "path",
    [
        "/nope",
        "/openapi/v2/nope",
        "/openapi/v2/games/",
        "/openapi/v2/games//",
        "/openapi/v1/post/1/",
        "/console/",
    ],
)
def test_unknown_paths_and_trailing_slashes_are_a_plain_404(signed, path):
    r = signed.client.get(path, headers=signed.creds.headers("GET", path), follow_redirects=False)
    body = r.json()
    assert r.status_code == 404 and "location" not in r.headers
    assert body["code"] == 200401 and body["msg"] == "no such path"


def test_the_pages_that_end_with_a_slash_still_answer(client):
    assert client.get("/").status_code == 200
    assert client.get("/openapi/v2/meta/docs/").status_code == 200
