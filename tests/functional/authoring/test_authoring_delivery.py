"""What approval sets off: the signed webhook reaching a subscriber, and draft files (the
uploadDraftFile extension) becoming downloadable resource files."""

from __future__ import annotations

import hashlib
import json

from models.authoring import review
from tests.helpers.authoring import EDIT, PUBLISH, SAVE, V2, full_body, new_draft
from tests.helpers.catalog import data, error_code
from workers.relay import relay_pending
from workers.webhook_post import deliver_many

UPLOAD = f"{V2}/draft-files"
JAR = b"PK\x03\x04 not really a jar " * 100


def _approve(db, display, draft_id):
    with db.session() as s, s.begin():
        review.approve(s, draft_id=draft_id, display=display)


def test_approval_raises_signed_webhooks_to_subscribers(
    signed, db, display, tax, author, rt, receiver, subscribe
):
    subscribe(receiver.url, events=["resource.published", "resource.updated"])
    draft_id = new_draft(signed, author, tax)
    signed.post(PUBLISH[0].format(draft_id), json=full_body(tax), headers=author.headers)
    assert relay_pending(rt) == []  # nothing is sent for a draft in review
    _approve(db, display, draft_id)
    deliver_many(rt, relay_pending(rt))
    signed.post(
        EDIT[0].format(draft_id), json={"mainName": "Create 2", "postVersion": 1}, headers=author.headers
    )
    with db.session() as s:
        [edit] = [d for d in review.queue(s)]
    _approve(db, display, edit.id)
    deliver_many(rt, relay_pending(rt))
    got = receiver.wait_for(2)
    bodies = [json.loads(g.body) for g in got]
    assert [(b["event"], b["data"]["postId"], b["data"]["mainName"]) for b in bodies] == [
        ("resource.published", draft_id, "机械动力 Create"),
        ("resource.updated", draft_id, "Create 2"),
    ]
    assert [g.headers["x-webhook-event"] for g in got] == ["resource.published", "resource.updated"]


def _upload(signed, author, content=JAR, name="create-1.0.jar"):
    return signed.post(
        UPLOAD, files={"file": (name, content, "application/java-archive")}, headers=author.headers
    )


def test_uploaded_draft_files_become_resource_files(signed, db, display, tax, author, make_author):
    up = data(_upload(signed, author))
    assert up["size"] == len(JAR) and up["sha256"] == hashlib.sha256(JAR).hexdigest()
    cover = data(_upload(signed, author, b"\x89PNG cover", "cover.png"))["fileId"]
    draft_id = new_draft(signed, author, tax)
    body = full_body(
        tax,
        coverFileId=cover,
        images=[cover],
        resourceFileInfoVos=[
            {
                "infoTitle": "主文件 main",
                "directFileId": up["fileId"],
                "fileVersion": "1.0",
                "resourceVersion": ["1.20.1"],
            },
            {"infoTitle": "mirror", "directFileUrl": "https://x.example/a.jar"},
        ],
    )
    assert data(signed.post(PUBLISH[1].format(draft_id), json=body, headers=author.headers)) is True
    other = make_author()
    theirs = data(_upload(signed, other, b"other bytes"))["fileId"]
    stolen = signed.post(SAVE[0].format(0), json={"coverFileId": theirs}, headers=author.headers)
    assert error_code(stolen, 400) == 200710
    _approve(db, display, draft_id)
    files = data(signed.get(f"{V2}/mods/{draft_id}/files"))
    assert sorted(f["storageType"] for f in files) == ["DIRECT_LINK", "DIRECT_UPLOAD"]
    [jar] = [f for f in files if f["storageType"] == "DIRECT_UPLOAD"]
    got = signed.get(f"{V2}/mods/{draft_id}/files/{jar['fileInfoId']}/download-file")
    assert got.status_code == 200 and got.content == JAR
    assert data(signed.get(f"{V2}/mods/{draft_id}"))["coverImageUrl"]


def test_upload_needs_a_file_part_and_a_token(signed, author):
    missing = signed.post(UPLOAD, files={"other": ("a", b"x")}, headers=author.headers)
    assert error_code(missing, 400) == 200301
    assert error_code(signed.post(UPLOAD, files={"file": ("a", b"x")}), 401) in (200209, 200210)
