"""One file, one external URL: download-url, download-file's redirect, the file detail's
downInfo, download-auth and install-info all give the same address for an external file (a
seeded one, whose stored sources repeat its link, and an authored one, which has only its link)."""

from __future__ import annotations

import json
import random

import pytest

from models.catalog.tables import ResourceFile
from modhub.seed_rows import file_row
from tests.helpers.catalog import NOW, data


class _LinkOnly(random.Random):
    """The seed's own random choices, with the storage type forced to an external link."""

    def choice(self, seq):
        return "DIRECT_LINK" if "DIRECT_LINK" in seq else super().choice(seq)


def _seeded(cat, post_id: int) -> int:
    post = {
        "id": post_id,
        "abbr_name": "AS69",
        "resource_version": "0.9.8",
        "sub_name": "远古生存",
        "game_versions": ["1.20.1"],
        "run_platform": "forge",
        "publish_time": NOW,
        "update_time": NOW,
    }
    row = {**file_row(_LinkOnly(7), post, 14), "file_status": "NORMAL", "is_delete": False}
    return cat.add(ResourceFile, **row)


def _authored(cat, post_id: int) -> int:
    return cat.file(
        post_id,
        storage_type="DIRECT_LINK",
        external_url="https://mirror.example.net/files/author-1.0.jar",
        file_name="author-1.0.jar",
        sha256=None,
    )


def _answers(signed, client, post_id: int, file_id: int) -> dict[str, list[str]]:
    """Every URL each of the five answers gives for the file."""
    location = client.get(
        f"/openapi/v2/mods/{post_id}/files/{file_id}/download-file",
        headers=signed.creds.headers("GET", f"/openapi/v2/mods/{post_id}/files/{file_id}/download-file"),
        follow_redirects=False,
    )
    assert location.status_code == 302, location.text
    detail = data(signed.get(f"/openapi/v2/mods/{post_id}/files/{file_id}"))
    auth = data(signed.post(f"/openapi/v2/resource/{post_id}/download-auth", json={"fileInfoId": file_id}))
    install = data(signed.get(f"/openapi/v2/mods/{post_id}/install-info"))
    return {
        "download-url": [data(signed.get(f"/openapi/v2/files/{file_id}/download-url"))["url"]],
        "download-file": [location.headers["Location"]],
        "downInfo": [i["url"] for i in detail["downInfo"]],
        "download-auth": [i["url"] for i in auth["downloadInfos"]],
        "install-info": [f["downloadUrl"] for f in install["files"] if f["fileInfoId"] == file_id],
    }


@pytest.mark.parametrize("make", [_seeded, _authored])
def test_five_answers_give_one_url_per_file(signed, client, cat, make):
    post_id = cat.post(
        install_script=json.dumps({"steps": [{"action": "copy", "from": "@0", "to": "mods/"}]})
    )
    file_id = make(cat, post_id)
    answers = _answers(signed, client, post_id, file_id)
    urls = {u for got in answers.values() for u in got}
    assert len(urls) == 1, answers
    assert all(len(got) == 1 for got in answers.values()), answers
    [url] = urls
    assert url.startswith("https://") and url.endswith(".jar")
