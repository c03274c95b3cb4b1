"""Mass assignment (OWASP API3, issue 31 item 3): every write that takes a body ignores or refuses
the fields a caller may not set.

Each JSON write of the contract is sent by user A (a valid token) with its contract example (or a
complete body where the example names objects this test does not have), plus every server-owned
field its request schema does not declare: ids, owners, application, states and review states,
counters, balances, prices, times, deletion flags; each with a sentinel value. Whatever the answer
(a refusal is fine), no 5xx, and no row of any table took a sentinel: no number equals the
sentinel id, no user column names the victim (a user who does nothing), no time is the forged
one. The draft-control fields the save schema declares (postId, parentPostId, isNewDraft...) and
an approved post's price are checked on the stored rows.
"""

from __future__ import annotations

import collections
import re

from sqlalchemy import BigInteger, Integer, Numeric, String, text

from models.authoring.tables import ResourceDraft
from models.base import Base
from models.catalog.tables import ResourcePost
from modhub.contract import Contract
from tests.functional.hardening.test_object_authorization import (  # noqa: F401  (fixtures)
    LOBBY,
    V2,
    _headers,
    owned,
    settings,
)
from tests.helpers.authoring import full_body

DOC = Contract.load().document  # the parse kept beside the YAML (modhub.contract)
SCHEMAS = DOC["components"]["schemas"]
SENTINEL = 987_654_321
FORGED_TIME = "2001-02-03 04:05:06"


def _resolved(schema: dict) -> dict:
    while "$ref" in schema:
        schema = SCHEMAS[schema["$ref"].rsplit("/", 1)[-1]]
    return schema


def declared(schema: dict) -> set[str]:
    """The property names a request schema declares (allOf/oneOf/anyOf included)."""
    schema = _resolved(schema)
    names = set(schema.get("properties", {}))
    for key in ("allOf", "oneOf", "anyOf"):
        for part in schema.get(key, []):
            names |= declared(part)
    return names


def forbidden(victim: int) -> dict:
    """Fields only the server sets, with sentinel values."""
    return {
        "id": SENTINEL,
        "userId": victim,
        "ownerId": victim,
        "authorId": victim,
        "creatorId": victim,
        "senderId": victim,
        "appId": SENTINEL,
        "status": "PUBLISHED",
        "state": "STORED",
        "reviewStatus": "APPROVED",
        "auditStatus": "APPROVED",
        "visibility": "PUBLIC",
        "likeCount": SENTINEL,
        "collectCount": SENTINEL,
        "downloadCount": SENTINEL,
        "commentCount": SENTINEL,
        "followerCount": SENTINEL,
        "balance": SENTINEL,
        "price": SENTINEL,
        "priceAmount": SENTINEL,
        "createTime": FORGED_TIME,
        "updateTime": FORGED_TIME,
        "publishTime": FORGED_TIME,
        "isDelete": True,
        "readFlag": True,
    }


WRITES = [
    (m.upper(), p, o)
    for p, item in DOC["paths"].items()
    for m, o in item.items()
    if m in ("post", "put", "patch", "delete")
    and "application/json" in o.get("requestBody", {}).get("content", {})
]
# Bodies for the operations whose example names objects this test makes (the example's ids
# would only be refused as not found, which would test nothing).
BODIES = {
    "saveModDraft": "full_body",
    "saveResourceDraft": "full_body",
    "publishModDraft": "full_body",
    "publishResourceDraft": "full_body",
    "editMod": "full_body",
    "editResource": "full_body",
    "updateLobbyPost": "lobby_body",
    "publishLobbyPost": "lobby_body",
}


def sentinel_rows(db, victim: int) -> list[str]:
    """Columns of any table holding a sentinel: the id, the victim in a user column, the time."""
    checks = []
    for table in Base.metadata.sorted_tables:
        for column in table.columns:
            name = f'"{table.name}"."{column.name}"'
            if isinstance(column.type, (Integer, BigInteger, Numeric)):
                checks.append((name, f"{name} = {SENTINEL}"))
                if re.search(r"(user|owner|author|sender|creator)(_id)?$", column.name):
                    checks.append((name + " (victim)", f"{name} = {victim}"))
            elif column.type.python_type is not str and "time" in column.name:
                checks.append((name, f"CAST({name} AS text) LIKE '2001-02-03%'"))
            elif isinstance(column.type, String) and column.name in ("status", "state"):
                continue  # states are checked on the rows they belong to (below)
    sql = "SELECT " + ", ".join(
        f"(SELECT coalesce(bool_or({condition}), false) FROM {name.split('.')[0]})"
        for name, condition in checks
    )
    with db.session() as session:
        hits = session.execute(text(sql)).one()
    return [name for (name, _), hit in zip(checks, hits, strict=True) if hit]


USER_FIELD = re.compile(r"(?i)user_?id$")  # toUserId, targetUserId, userId


def _addressed_to(body: dict, user_id: int) -> dict:
    """The body with each user it names (an example's toUserId, targetUserId...) replaced by
    user_id: an example's number could be the victim's id in this database."""
    return {k: user_id if USER_FIELD.search(k) and isinstance(v, int) else v for k, v in body.items()}


def test_no_write_takes_a_field_the_caller_may_not_set(signed, db, make_user, owned):  # noqa: F811
    victim, bystander = make_user(), make_user()  # the bodies name the bystander, never the victim
    a = owned["ids"]["a"]
    headers = _headers(a, owned["a_token"])
    ids = {**owned["ids"], "userId": a, "postId": owned["ids"]["post"], "draftId": owned["ids"]["draft"]}
    ids |= {"currencyCode": "POINTS", "resourceId": owned["ids"]["res"]}
    assert sentinel_rows(db, victim) == []
    failures, answers = [], collections.Counter()
    for method, path, op in WRITES:
        op_id = op["operationId"]
        content = op["requestBody"]["content"]["application/json"]
        named = BODIES.get(op_id)
        body = (
            dict(owned["bodies"][named]) if named else _addressed_to(content.get("example") or {}, bystander)
        )
        if op_id.startswith("edit"):
            path = path.replace("{postId}", str(owned["ids"]["post"]))
        elif "{postId}" in path and "lobby" in path:
            path = path.replace("{postId}", str(owned["ids"]["lobby"]))
        url = re.sub(r"\{(\w+)\}", lambda m: str(ids.get(m.group(1), 1)), path)
        extra = {k: v for k, v in forbidden(victim).items() if k not in declared(content["schema"])}
        answer = signed.request(method, url, json={**body, **extra}, headers=headers)
        answers[answer.status_code] += 1
        if answer.status_code >= 500:
            failures.append((op_id, answer.status_code, answer.text[:200]))
        leaked = sentinel_rows(db, victim)
        if leaked:
            failures.append((op_id, "stored", leaked))
            break  # the first operation that stored a sentinel is the one to fix
    assert not failures, "\n".join(map(repr, failures))
    assert sum(answers.values()) == len(WRITES) >= 40
    assert answers[200] >= 20, answers  # most writes went through: the extra fields were ignored


def test_draft_control_fields_and_an_approved_price_are_the_servers(
    signed,
    db,
    make_user,
    make_token,
    creds,
    owned,  # noqa: F811
    tax,  # noqa: F811
):
    a = owned["ids"]["a"]
    headers = _headers(a, owned["a_token"])
    b = make_user()
    b_headers = _headers(b, make_token(creds.app_id, b))
    init = {
        "sectionCode": "minecraft",
        "resourceTypeId": tax.mod_type,
        "categoryId": str(tax.tech),
        "title": "B",
    }
    b_draft = signed.post(V2 + "/mods/draft/init", json=init, headers=b_headers).json()["data"]["postId"]
    draft = owned["ids"]["draft"]
    forged = {
        "postId": b_draft,  # another user's draft
        "parentPostId": tax.listed_post,  # a post A does not author: an EDIT of it
        "isNewDraft": False,
        "postVersion": 99,
    }
    answer = signed.post(f"{V2}/mods/draft/{draft}/save", json={**full_body(tax), **forged}, headers=headers)
    assert answer.status_code < 500, answer.text
    with db.session() as session:
        mine, theirs = session.get(ResourceDraft, draft), session.get(ResourceDraft, b_draft)
        assert mine.parent_post_id is None and mine.kind == "NEW"
        assert theirs.user_id == b and theirs.parent_post_id is None
        assert (
            session.get(ResourcePost, b_draft) is None
            or session.get(ResourcePost, b_draft).main_name != "机械动力 Create"
        )

    # an approved (published) post's price changes only through review: an edit is a draft
    post_id = owned["ids"]["post"]
    with db.session() as session:
        before = session.get(ResourcePost, post_id).price_amount
    body = {**full_body(tax), "isPaid": True, "priceCurrencyCode": "POINTS", "priceAmount": 5}
    answer = signed.post(f"{V2}/mods/{post_id}/edit", json=body, headers=headers)
    assert answer.status_code < 500, answer.text
    with db.session() as session:
        post = session.get(ResourcePost, post_id)
        assert post.price_amount == before and post.status == "PUBLISHED"


def test_the_sentinel_scan_sees_a_stored_sentinel(db, make_user):
    """The scan is not blind: a row holding a sentinel is found."""
    victim = make_user()
    with db.session() as session:
        session.execute(
            text("INSERT INTO community_notification (user_id, message_type, read_flag, create_time) "
                 "VALUES (:v, 'SYSTEM', false, now())"),
            {"v": victim},
        )  # fmt: skip
        session.commit()
    assert any("community_notification" in name for name in sentinel_rows(db, victim))
