"""The eight authoring operations over HTTP on PostgreSQL: every state move and every refusal."""

from __future__ import annotations

import json

import pytest
from sqlalchemy import select

from models.authoring import review
from models.authoring.tables import ResourceDraft
from models.catalog.tables import Category, ResourceAuthor, ResourcePost
from models.community.tables import Notification
from models.webhooks.tables import OutboxEvent
from tests.helpers.authoring import EDIT, INIT, PUBLISH, SAVE, V2, full_body, new_draft
from tests.helpers.catalog import data, error_code


def _draft(db, draft_id) -> ResourceDraft:
    with db.session() as s:
        return s.get(ResourceDraft, draft_id)


def _approve(db, display, draft_id):
    with db.session() as s, s.begin():
        return review.approve(s, draft_id=draft_id, display=display).id


def _reject(db, draft_id, reason="cover missing"):
    with db.session() as s, s.begin():
        review.reject(s, draft_id=draft_id, reason=reason)


def _events(db):
    with db.session() as s:
        return [
            (e.kind, e.data["postId"], e.data["mainName"])
            for e in s.scalars(select(OutboxEvent).order_by(OutboxEvent.id))
        ]


@pytest.mark.parametrize("alias", [0, 1])
def test_init_save_publish_approve_on_each_alias(signed, db, display, tax, author, alias):
    draft_id = new_draft(signed, author, tax, alias)
    assert _draft(db, draft_id).state == "DRAFT"
    assert error_code(signed.get(f"{V2}/mods/{draft_id}"), 404) == 200404  # drafts are not listed
    saved = data(signed.post(SAVE[alias].format(draft_id), json=full_body(tax), headers=author.headers))
    assert saved == {"postId": draft_id}
    d = _draft(db, draft_id)
    assert d.content["content"] == "<p>hello</p>" and d.content["mainName"] == "机械动力 Create"
    assert data(signed.post(PUBLISH[alias].format(draft_id), json={}, headers=author.headers)) is True
    assert _draft(db, draft_id).state == "PENDING_REVIEW"
    assert error_code(signed.get(f"{V2}/mods/{draft_id}"), 404) == 200404  # nothing visible in review
    assert _approve(db, display, draft_id) == draft_id
    assert _draft(db, draft_id).state == "PUBLISHED"
    shown = data(signed.get(f"{V2}/mods/{draft_id}"))
    assert (shown["mainName"], shown["postVersion"], shown["resourceType"]) == ("机械动力 Create", 1, "mod")
    assert shown["mainCategories"] == ["mod-tech", "mod-magic"] and shown["runPlatform"] == "forge"
    assert [a["userId"] for a in shown["authors"]] == [author.user_id]
    relations = data(signed.get(f"{V2}/mods/{draft_id}/relations"))
    assert [(r["relationType"], r["targetPostId"], r["isRequired"]) for r in relations] == [
        ("DEPENDENCY", tax.listed_post, True)
    ]
    assert _events(db) == [("resource.published", draft_id, "机械动力 Create")]
    synced = data(signed.get(f"{V2}/mods/sync"))
    assert draft_id in [i["postId"] for i in synced["items"]]
    hits = data(signed.get(f"{V2}/mods/search", params={"keyword": "机械动力"}))
    assert draft_id in [i["postId"] for i in hits["list"]]
    with db.session() as s:
        note = s.scalar(select(Notification).where(Notification.user_id == author.user_id))
        assert note.message_type == "SYSTEM" and note.entity_id == draft_id


def test_save_zero_creates_a_new_draft_and_saves_merge_fields(signed, db, tax, author):
    first = data(signed.post(SAVE[1].format(0), json={"mainName": "A"}, headers=author.headers))["postId"]
    second = data(signed.post(SAVE[0].format(0), json={"mainName": "B"}, headers=author.headers))["postId"]
    assert first != second and _draft(db, first).kind == "NEW"
    signed.post(SAVE[0].format(first), json={"subName": "sub"}, headers=author.headers)
    assert _draft(db, first).content == {"mainName": "A", "subName": "sub"}
    signed.post(SAVE[0].format(first), json={"subName": "x", "isAllEdit": True}, headers=author.headers)
    assert _draft(db, first).content == {"subName": "x"}


def test_reject_with_reason_back_to_draft_and_resubmit(signed, db, display, tax, author):
    draft_id = new_draft(signed, author, tax)
    assert data(signed.post(PUBLISH[0].format(draft_id), json=full_body(tax), headers=author.headers))
    _reject(db, draft_id, "封面缺失 cover missing")
    d = _draft(db, draft_id)
    assert (d.state, d.reject_reason) == ("REJECTED", "封面缺失 cover missing")
    [note] = data(signed.get(f"{V2}/community/notifications", headers=author.headers))["list"]
    assert (note["messageType"], note["entityId"]) == ("SYSTEM", draft_id)
    assert "封面缺失 cover missing" in note["content"] and note["readFlag"] is False
    with db.session() as s:
        note = s.scalar(select(Notification).where(Notification.user_id == author.user_id))
        assert "封面缺失 cover missing" in note.content and note.title == "Resource change rejected"
    signed.post(SAVE[1].format(draft_id), json={"subName": "fixed"}, headers=author.headers)
    assert _draft(db, draft_id).state == "DRAFT"
    assert data(signed.post(PUBLISH[1].format(draft_id), json={}, headers=author.headers)) is True
    assert _draft(db, draft_id).state == "PENDING_REVIEW" and _draft(db, draft_id).reject_reason is None
    _approve(db, display, draft_id)
    with pytest.raises(Exception) as again:
        _approve(db, display, draft_id)
    assert getattr(again.value, "code", None) == 200711


def test_a_draft_in_review_or_published_is_frozen(signed, db, display, tax, author):
    draft_id = new_draft(signed, author, tax)
    signed.post(PUBLISH[0].format(draft_id), json=full_body(tax), headers=author.headers)
    resubmit = signed.post(PUBLISH[0].format(draft_id), json={}, headers=author.headers)
    assert error_code(resubmit, 409) == 200701
    assert error_code(signed.post(SAVE[1].format(draft_id), json={}, headers=author.headers), 409) == 200701
    _approve(db, display, draft_id)
    assert error_code(signed.post(SAVE[0].format(draft_id), json={}, headers=author.headers), 409) == 200701


def test_incomplete_draft_cannot_be_submitted(signed, db, tax, author):
    draft_id = data(signed.post(SAVE[0].format(0), json={"mainName": "x"}, headers=author.headers))["postId"]
    response = signed.post(PUBLISH[0].format(draft_id), json={}, headers=author.headers)
    assert error_code(response, 400) == 200705 and "sectionCode" in response.json()["msg"]
    assert _draft(db, draft_id).state == "DRAFT"


def test_only_the_owner_touches_a_draft(signed, tax, author, make_author):
    draft_id = new_draft(signed, author, tax)
    other = make_author()
    for path in (SAVE[0], PUBLISH[1]):
        assert error_code(signed.post(path.format(draft_id), json={}, headers=other.headers), 404) == 200404
    assert error_code(signed.post(SAVE[0].format(987654321), json={}, headers=author.headers), 404) == 200404


@pytest.mark.parametrize(
    "field,value,code",
    [
        ("mainCategory", "1,2,3,4,5,6", 200301),  # too many categories (the contract's pattern)
        ("mainCategory", "999999", 200706),
        ("sectionCode", "nope", 200706),
        ("runPlatformId", 999999, 200706),
        ("relation", {"dependencies": [{"postId": 999999}]}, 200707),
        ("authors", '[{"userId": "x"}]', 200708),
        ("authors", "not json", 200708),
        ("authors", '[{"userId": 999999, "role": "OWNER"}]', 200708),
        ("authors", '[{"userId": 1}, {"userId": 1}]', 200708),
        ("authors", '[{"userId": 1, "role": "BOSS"}]', 200708),
        ("refLink", "{oops", 200712),
        ("isPaid", True, 200709),
        ("coverFileId", "999999", 200710),
        ("introduction", "x" * 501, 200301),
        ("mainName", "x" * 256, 200301),
        ("priceCurrencyCode", "EURO", 200301),
        ("priceAmount", 1e16, 200301),
        ("resourceFileInfoVos", [{"directFileUrl": "https://x.example/a", "fileVersion": "v" * 65}], 200301),
        ("resourceFileInfoVos", [{"infoTitle": "no source"}], 200301),
        ("resourceFileInfoVos", [{"infoId": 999999}], 200710),
    ],
)
def test_save_refusals(signed, db, tax, author, field, value, code):
    draft_id = new_draft(signed, author, tax)
    before = _draft(db, draft_id).content
    response = signed.post(SAVE[0].format(draft_id), json={field: value}, headers=author.headers)
    assert error_code(response, 400) == code
    assert _draft(db, draft_id).content == before  # nothing saved


def test_category_of_another_section_and_paid_rules(signed, tax, author):
    draft_id = new_draft(signed, author, tax)
    h = author.headers
    assert (
        error_code(
            signed.post(
                SAVE[0].format(draft_id), json={"mainCategory": str(tax.other_section_cat)}, headers=h
            ),
            400,
        )
        == 200706
    )
    assert (
        error_code(
            signed.post(SAVE[0].format(draft_id), json={"isPaid": True, "priceAmount": 5}, headers=h), 400
        )
        == 200709
    )
    assert (
        error_code(
            signed.post(
                SAVE[0].format(draft_id), json={"isPaid": True, "priceCurrencyCode": "CNY"}, headers=h
            ),
            400,
        )
        == 200709
    )
    ok = signed.post(
        SAVE[0].format(draft_id),
        json={"isPaid": True, "priceCurrencyCode": "CNY", "priceAmount": 9.9},
        headers=h,
    )
    assert data(ok) == {"postId": draft_id}


def test_init_refusals(signed, tax, author):
    base = {"sectionCode": "minecraft", "resourceTypeId": tax.mod_type}
    too_many = signed.post(INIT[0], json={**base, "categoryId": "1,2,3,4,5,6"}, headers=author.headers)
    assert error_code(too_many, 400) == 200301
    other = signed.post(
        INIT[1], json={**base, "categoryId": str(tax.other_section_cat)}, headers=author.headers
    )
    assert error_code(other, 400) == 200706
    not_a_type = signed.post(
        INIT[0],
        json={**base, "resourceTypeId": tax.tech, "categoryId": str(tax.tech)},
        headers=author.headers,
    )
    assert error_code(not_a_type, 400) == 200706


def test_relation_to_itself_or_to_a_draft_is_refused(signed, tax, author):
    draft_id, other = new_draft(signed, author, tax), new_draft(signed, author, tax)
    for target in (draft_id, other):
        body = {"relation": {"recommendations": [{"postId": target}]}}
        assert (
            error_code(signed.post(SAVE[0].format(draft_id), json=body, headers=author.headers), 400)
            == 200707
        )


def test_relation_keys_outside_the_three_kinds_are_ignored(signed, db, tax, author):
    """ResourceRelationParam allows other keys (found by schemathesis: a list of lists under an
    unknown key was read as relation items, a 500)."""
    draft_id = new_draft(signed, author, tax)
    body = {"relation": {"other": [[-9726]], "more": {"x": 1}, "dependencies": None}}
    assert data(signed.post(SAVE[0].format(draft_id), json=body, headers=author.headers)) == {
        "postId": draft_id
    }
    assert _draft(db, draft_id).content["relation"] == body["relation"]  # kept as sent


def _published(signed, db, display, tax, author, **fields) -> int:
    draft_id = new_draft(signed, author, tax)
    signed.post(PUBLISH[0].format(draft_id), json=full_body(tax, **fields), headers=author.headers)
    _approve(db, display, draft_id)
    return draft_id


@pytest.mark.parametrize("alias", [0, 1])
def test_edit_goes_through_review_and_bumps_the_version(signed, db, display, tax, author, alias):
    post_id = _published(signed, db, display, tax, author)
    body = {"mainName": "Create 2", "resourceVersion": "2.0", "updateCommit": "trains", "postVersion": 1}
    assert data(signed.post(EDIT[alias].format(post_id), json=body, headers=author.headers)) is True
    with db.session() as s:
        [edit] = s.scalars(select(ResourceDraft).where(ResourceDraft.parent_post_id == post_id))
        edit_id = edit.id
        assert (edit.kind, edit.state, edit.base_version) == ("EDIT", "PENDING_REVIEW", 1)
    assert data(signed.get(f"{V2}/mods/{post_id}"))["mainName"] == "机械动力 Create"  # not yet
    with db.session() as s:
        changes = {f: (old, new) for f, old, new in review.diff(s, s.get(ResourceDraft, edit_id))}
    assert changes["main_name"] == ("机械动力 Create", "Create 2")
    assert changes["resource_version"] == ("1.0", "2.0")
    _approve(db, display, edit_id)
    shown = data(signed.get(f"{V2}/mods/{post_id}"))
    assert (shown["mainName"], shown["postVersion"], shown["resourceVersion"]) == ("Create 2", 2, "2.0")
    versions = data(signed.get(f"{V2}/mods/{post_id}/versions"))
    assert [v["versionNumber"] for v in versions][:2] == [2, 1]
    assert _events(db)[-1] == ("resource.updated", post_id, "Create 2")
    synced = {i["postId"]: i for i in data(signed.get(f"{V2}/resource/sync"))["items"]}
    assert synced[post_id]["mainName"] == "Create 2" and edit_id not in synced
    # a later edit makes a new EDIT draft
    assert (
        data(
            signed.post(
                EDIT[alias].format(post_id), json={"subName": "s", "postVersion": 2}, headers=author.headers
            )
        )
        is True
    )
    with db.session() as s:
        assert len(s.scalars(select(ResourceDraft).where(ResourceDraft.parent_post_id == post_id)).all()) == 2


def test_stale_edit_is_refused(signed, db, display, tax, author, make_author):
    post_id = _published(signed, db, display, tax, author)
    signed.post(EDIT[0].format(post_id), json={"mainName": "v2", "postVersion": 1}, headers=author.headers)
    with db.session() as s:
        edit_id = s.scalar(select(ResourceDraft.id).where(ResourceDraft.parent_post_id == post_id))
    _approve(db, display, edit_id)
    stale = signed.post(
        EDIT[1].format(post_id), json={"mainName": "v3", "postVersion": 1}, headers=author.headers
    )
    assert error_code(stale, 409) == 200702
    # a co-owner's edit based on version 2 waits while the author's own edit is approved first
    co = make_author()
    with db.session() as s, s.begin():
        s.add(ResourceAuthor(post_id=post_id, user_id=co.user_id, role="OWNER"))
    assert data(signed.post(EDIT[0].format(post_id), json={"subName": "co"}, headers=co.headers))
    assert data(
        signed.post(EDIT[0].format(post_id), json={"subName": "me", "postVersion": 2}, headers=author.headers)
    )
    with db.session() as s:
        co_edit, my_edit = s.scalars(
            select(ResourceDraft.id)
            .where(ResourceDraft.parent_post_id == post_id, ResourceDraft.state == "PENDING_REVIEW")
            .order_by(ResourceDraft.id)
        ).all()
    _approve(db, display, my_edit)
    with pytest.raises(Exception) as refused:
        _approve(db, display, co_edit)
    assert getattr(refused.value, "code", None) == 200702
    assert data(signed.get(f"{V2}/mods/{post_id}"))["subName"] == "me"


def test_edit_refusals(signed, db, display, tax, author, make_author):
    post_id = _published(signed, db, display, tax, author)
    other = make_author()
    assert (
        error_code(signed.post(EDIT[0].format(post_id), json={"mainName": "x"}, headers=other.headers), 403)
        == 200703
    )
    theirs = signed.post(SAVE[1].format(0), json={"parentPostId": post_id}, headers=other.headers)
    assert error_code(theirs, 403) == 200703
    draft_id = new_draft(signed, author, tax)
    assert (
        error_code(signed.post(EDIT[1].format(draft_id), json={"mainName": "x"}, headers=author.headers), 404)
        == 200404
    )
    assert error_code(signed.post(EDIT[0].format(99999999), json={}, headers=author.headers), 404) == 200404
    assert error_code(signed.post(EDIT[0].format(post_id), json={}, headers=author.headers), 400) == 200705
    cleared = signed.post(EDIT[1].format(post_id), json={"mainName": None}, headers=author.headers)
    assert error_code(cleared, 400) == 200705
    with db.session() as s, s.begin():
        s.get(ResourcePost, post_id).status = "PENDING"
    assert (
        error_code(signed.post(EDIT[0].format(post_id), json={"mainName": "x"}, headers=author.headers), 409)
        == 200704
    )
    with db.session() as s, s.begin():
        s.get(ResourcePost, post_id).status = "PUBLISHED"
    assert data(signed.post(EDIT[0].format(post_id), json={"mainName": "x"}, headers=author.headers))
    again = signed.post(EDIT[0].format(post_id), json={"mainName": "y"}, headers=author.headers)
    assert error_code(again, 409) == 200701


def test_save_zero_with_parent_makes_an_edit_draft(signed, db, display, tax, author):
    post_id = _published(signed, db, display, tax, author)
    body = {"parentPostId": post_id, "mainName": "renamed"}
    edit_id = data(signed.post(SAVE[0].format(0), json=body, headers=author.headers))["postId"]
    d = _draft(db, edit_id)
    assert (d.kind, d.parent_post_id, d.state) == ("EDIT", post_id, "DRAFT")
    again = data(signed.post(SAVE[1].format(0), json={**body, "subName": "s"}, headers=author.headers))
    assert again["postId"] == edit_id  # the open EDIT draft is reused
    assert data(signed.post(PUBLISH[0].format(edit_id), json={}, headers=author.headers)) is True
    _approve(db, display, edit_id)
    assert data(signed.get(f"{V2}/mods/{post_id}"))["mainName"] == "renamed"


@pytest.mark.parametrize("scopes,allowed", [(["post:write"], True), (["community:write"], False), ([], True)])
def test_post_write_scope(signed, tax, make_author, scopes, allowed):
    acting = make_author(scopes=scopes)
    response = signed.post(SAVE[0].format(0), json={"mainName": "x"}, headers=acting.headers)
    if allowed:
        assert data(response)["postId"] > 0
    else:
        assert error_code(response, 403) == 200214


def test_without_proxy_token_is_refused(signed, tax):
    assert error_code(signed.post(SAVE[0].format(0), json={}), 401) in (200209, 200210)


def test_paid_price_and_authors_reach_the_published_post(signed, db, display, tax, author, make_user):
    helper = make_user(username="helper")
    authors = json.dumps([{"userId": helper, "role": "COLLABORATOR"}])
    post_id = _published(
        signed,
        db,
        display,
        tax,
        author,
        isPaid=True,
        priceCurrencyCode="CNY",
        priceAmount=12.5,
        authors=authors,
    )
    shown = data(signed.get(f"{V2}/mods/{post_id}"))
    assert (shown["isPaid"], shown["priceAmount"], shown["priceCurrencyCode"]) == (True, 12.5, "CNY")
    assert [(a["userId"], a["role"]) for a in shown["authors"]] == [
        (author.user_id, "OWNER"),
        (helper, "COLLABORATOR"),
    ]


def test_submission_checks_the_saved_fields_again(signed, db, tax, author):
    draft_id = new_draft(signed, author, tax)
    signed.post(SAVE[0].format(draft_id), json=full_body(tax), headers=author.headers)
    with db.session() as s, s.begin():
        s.get(Category, tax.magic).is_delete = True
    refused = signed.post(PUBLISH[0].format(draft_id), json={}, headers=author.headers)
    assert error_code(refused, 400) == 200706
    assert _draft(db, draft_id).state == "DRAFT"


def test_every_id_a_write_takes_is_read_from_the_api(signed, db, display, tax, author):
    """An outside author: the ids of init and save come from documented reads only."""
    options = data(signed.get(f"{V2}/games/minecraft/filter-options"))
    type_id = next(o["id"] for o in options["resourceTypes"] if o["code"] == "mod")
    tree = data(signed.get(f"{V2}/categories/tree"))
    nodes = {n["categoryCode"]: n for root in tree for n in [root, *root["children"]]}
    assert nodes["mod"]["id"] == type_id == tax.mod_type
    category_ids = [nodes["mod-tech"]["id"], nodes["mod-magic"]["id"]]
    assert sorted(o["id"] for o in options["mainCategories"] if o["parentCode"] == "mod") == sorted(
        category_ids
    )
    loader = next(p["infoId"] for p in data(signed.get(f"{V2}/mod-loaders")) if p["code"] == "forge")
    copyrights = {o["code"]: o["id"] for o in data(signed.get(f"{V2}/copyright-options"))}
    init = {"sectionCode": "minecraft", "resourceTypeId": type_id, "categoryId": str(category_ids[0])}
    draft_id = data(signed.post(INIT[0], json=init, headers=author.headers))["postId"]
    body = full_body(
        tax,
        resourceTypeId=type_id,
        mainCategory=",".join(map(str, category_ids)),
        runPlatformId=loader,
        contentCopyrightId=copyrights["CC-BY-4.0"],
        resourceCopyrightId=copyrights["MIT"],
    )
    assert data(signed.post(SAVE[0].format(draft_id), json=body, headers=author.headers))
    assert data(signed.post(PUBLISH[0].format(draft_id), json={}, headers=author.headers)) is True
    _approve(db, display, draft_id)
    shown = data(signed.get(f"{V2}/mods/{draft_id}"))
    assert (shown["resourceType"], shown["runPlatform"]) == ("mod", "forge")
    assert shown["mainCategories"] == ["mod-tech", "mod-magic"]
    assert shown["contentCopyright"] == "CC-BY-4.0"
    other = new_draft(signed, author, tax)
    refused = signed.post(SAVE[0].format(other), json={"resourceCopyrightId": 999}, headers=author.headers)
    assert error_code(refused, 400) == 200706
