"""The content of a draft: the fields of BaseOpenApiResourceSaveParam a save keeps, their checks,
and what they become on the resource post (the columns approval writes and the review diff shows).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from decimal import Decimal
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from models.authoring.authors import parse_authors
from models.authoring.tables import DraftFile
from models.catalog.queries import listed_clause
from models.catalog.tables import Category, ResourceFile, ResourcePost, RunPlatform, Section
from models.catalog.taxonomy import copyright_code
from models.identity.tables import User
from modhub.core.errors import ApiError
from modhub.core.sanitize import clean_html

# A draft's content, a save body or a part of one: JSON objects of the contract, by api name.
Json = dict[str, Any]
# Save-record fields that steer the save itself and are not content.
CONTROL = frozenset({"postId", "isAllEdit", "isNewDraft", "parentPostId", "postVersion"})
# Content fields kept as they are on a resource post column.
COLUMNS = {
    "mainName": "main_name",
    "subName": "sub_name",
    "introduction": "introduction",
    "abbrName": "abbr_name",
    "presetCategory": "preset_category",
    "clientEnvironment": "client_environment",
    "serverEnvironment": "server_environment",
    "resourceVersion": "resource_version",
    "resourceState": "resource_state",
    "isPaid": "is_paid",
    "priceCurrencyCode": "price_currency_code",
    "visibility": "visibility",
    "postTags": "tags",
    "contentCopyright": "content_copyright",
    "resourceCopyright": "resource_copyright",
    "creationType": "creation_type",
    "sourceState": "source_state",
    "refLink": "ref_link",
    "content": "description_html",
    "mdContent": "description_md",
    "installScript": "install_script",
    "sectionCode": "section_code",
}
# Values a NOT NULL column takes when the content leaves it empty.
DEFAULTS = {
    "main_name": "",
    "client_environment": "UNKNOWN",
    "server_environment": "UNKNOWN",
    "resource_state": "ACTIVE",
    "is_paid": False,
    "visibility": "PUBLIC",
    "tags": [],
    "main_categories": [],
    "display_images": [],
    "section_code": "",
}
REQUIRED_TO_SUBMIT = ("mainName", "sectionCode", "resourceTypeId", "mainCategory")
RELATION_KINDS = {
    "dependencies": "DEPENDENCY",
    "incompatible": "INCOMPATIBLE",
    "recommendations": "RECOMMENDATION",
}
_CURRENCY = re.compile(r"[A-Z]{3}")
# Lengths of the columns the fields end in (checked on save, not only when approved).
LIMITS = {
    "mainName": 255,
    "subName": 255,
    "abbrName": 128,
    "resourceVersion": 64,
    "priceCurrencyCode": 3,
    "creationType": 32,
}
FILE_LIMITS = {
    "infoTitle": 255,
    "directFileName": 255,
    "fileVersion": 64,
    "runPlatform": 64,
    "directFileUrl": 1024,
}
MAX_PRICE = Decimal("1e15")


def patch_of(body: Json) -> Json:
    """The content fields a save body carries (null included: it clears the field)."""
    patch = {k: v for k, v in body.items() if k not in CONTROL}
    if patch.get("content") is not None:
        patch["content"] = clean_html(patch["content"])
    return patch


def category_ids(raw: str | None) -> list[int]:
    """The ids of a comma-separated category list (at most 5, no duplicates kept)."""
    if raw is None or not raw.strip():
        return []
    parts = [p.strip() for p in raw.split(",")]
    if not all(p.isdigit() and len(p) <= 18 for p in parts):
        raise ApiError("TAXONOMY_INVALID", "category ids must be whole numbers, comma separated")
    ids = list(dict.fromkeys(int(p) for p in parts))
    if len(ids) > 5:
        raise ApiError("PARAMETER_INVALID", "at most 5 categories")
    return ids


def _taxonomy(session: Session, merged: Json) -> None:
    code, type_id = merged.get("sectionCode"), merged.get("resourceTypeId")
    if code:
        section = session.scalar(select(Section).where(Section.code == code, Section.is_delete.is_(False)))
        if section is None or not section.enable or not section.resource_post_enabled:
            raise ApiError("TAXONOMY_INVALID", f"section {code!r} does not take resource posts")
    rtype = None
    if type_id is not None:
        rtype = session.get(Category, type_id)
        if (
            rtype is None
            or rtype.is_delete
            or rtype.parent_code is not None
            or rtype.section_code not in (None, code)
        ):
            raise ApiError(
                "TAXONOMY_INVALID",
                f"resourceTypeId {type_id} is not a resource type"
                + (f" of section {code!r}" if code else ""),
            )
    ids = category_ids(merged.get("mainCategory"))
    found = {c.id: c for c in session.scalars(select(Category).where(Category.id.in_(ids)))} if ids else {}
    for cid in ids:
        cat = found.get(cid)
        if cat is None or cat.is_delete or cat.parent_code is None:
            raise ApiError("TAXONOMY_INVALID", f"category {cid} does not exist")
        if cat.section_code not in (None, code):
            raise ApiError("TAXONOMY_INVALID", f"category {cid} belongs to another section")
        if rtype is not None and cat.parent_code != rtype.code:
            raise ApiError("TAXONOMY_INVALID", f"category {cid} is not under resource type {rtype.code}")
    for field in ("contentCopyrightId", "resourceCopyrightId"):
        if merged.get(field) is not None and copyright_code(merged[field]) is None:
            raise ApiError("TAXONOMY_INVALID", f"{field} {merged[field]} is not a copyright option")
    platform_id = merged.get("runPlatformId")
    if platform_id is not None:
        platform = session.get(RunPlatform, platform_id)
        if platform is None or platform.is_delete or not platform.enable:
            raise ApiError("TAXONOMY_INVALID", f"run platform {platform_id} does not exist")


def relation_items(relation: Json | None) -> Iterator[tuple[str, int, Json]]:
    """(relation type, position, item) of each item of the three relation kinds; other keys
    (ResourceRelationParam allows them) are kept in the draft and ignored."""
    for key, kind in RELATION_KINDS.items():
        for i, item in enumerate((relation or {}).get(key) or []):
            yield kind, i, item


def _relations(session: Session, relation: Json | None, own_ids: set[int]) -> None:
    targets = {item["postId"] for _, _, item in relation_items(relation)}
    if not targets:
        return
    if targets & own_ids:
        raise ApiError("RELATION_TARGET_UNKNOWN", "a resource cannot relate to itself")
    listed = set(
        session.scalars(select(ResourcePost.id).where(ResourcePost.id.in_(targets), listed_clause()))
    )
    missing = sorted(targets - listed)
    if missing:
        raise ApiError(
            "RELATION_TARGET_UNKNOWN",
            f"relation targets are not listed resources: {', '.join(map(str, missing))}",
        )


def _authors(session: Session, raw: str | None) -> None:
    ids = {a["userId"] for a in parse_authors(raw)}
    known = set(session.scalars(select(User.id).where(User.id.in_(ids)))) if ids else set()
    if ids - known:
        raise ApiError("AUTHORS_INVALID", f"unknown author user ids: {sorted(ids - known)}")


def _ref_link(raw: str | None) -> None:
    if raw is None or not raw.strip():
        return
    try:
        value = json.loads(raw)
    except ValueError as exc:
        raise ApiError("REF_LINK_INVALID", f"refLink is not JSON: {exc}") from exc
    if not isinstance(value, list):
        raise ApiError("REF_LINK_INVALID")


def _price(merged: Json) -> None:
    if not merged.get("isPaid"):
        return
    currency, amount = merged.get("priceCurrencyCode"), merged.get("priceAmount")
    if not isinstance(currency, str) or not _CURRENCY.fullmatch(currency):
        raise ApiError("PRICE_INVALID", "a paid resource needs priceCurrencyCode (e.g. CNY)")
    if amount is None or Decimal(str(amount)) <= 0:
        raise ApiError("PRICE_INVALID", "a paid resource needs a priceAmount above 0")


def draft_file_ids(content: Json) -> list[str]:
    """Every draft-file id the content refers to (cover, images, uploaded files)."""
    ids = [content.get("coverFileId"), *(content.get("images") or [])]
    ids += [f.get("directFileId") for f in content.get("resourceFileInfoVos") or []]
    return [i for i in ids if i not in (None, "")]


def owned_files(session: Session, *, user_id: int, ids: list[str]) -> dict[str, DraftFile]:
    """The user's draft files by id text; DRAFT_FILE_UNKNOWN for any other id."""
    if not ids:
        return {}
    if not all(isinstance(i, str) and i.isdigit() and len(i) <= 18 for i in ids):
        raise ApiError("DRAFT_FILE_UNKNOWN", "file ids are the fileId of uploadDraftFile")
    rows = session.scalars(
        select(DraftFile).where(DraftFile.id.in_({int(i) for i in ids}), DraftFile.user_id == user_id)
    )
    found = {str(f.id): f for f in rows}
    missing = sorted(set(ids) - set(found))
    if missing:
        raise ApiError("DRAFT_FILE_UNKNOWN", f"not draft files of this user: {', '.join(missing)}")
    return found


def _files(session: Session, patch: Json, *, user_id: int, parent_id: int | None) -> None:
    owned_files(session, user_id=user_id, ids=draft_file_ids(patch))
    for entry in patch.get("resourceFileInfoVos") or []:
        info_id = entry.get("infoId")
        if info_id is not None:
            f = session.get(ResourceFile, info_id)
            if parent_id is None or f is None or f.is_delete or f.post_id != parent_id:
                raise ApiError("DRAFT_FILE_UNKNOWN", f"file {info_id} is not a file of this resource")
        elif not (entry.get("directFileId") or entry.get("directFileUrl")):
            raise ApiError("PARAMETER_INVALID", "a new file needs directFileId or directFileUrl")


def _lengths(patch: Json) -> None:
    fields = [(k, patch.get(k), n) for k, n in LIMITS.items()]
    fields += [
        (f"resourceFileInfoVos.{k}", e.get(k), n)
        for e in patch.get("resourceFileInfoVos") or []
        for k, n in FILE_LIMITS.items()
    ]
    for name, value, limit in fields:
        if isinstance(value, str) and len(value) > limit:
            raise ApiError("PARAMETER_INVALID", f"{name} is longer than {limit} characters")
    if patch.get("priceAmount") is not None and Decimal(str(patch["priceAmount"])) >= MAX_PRICE:
        raise ApiError("PARAMETER_INVALID", "priceAmount is too large")


def validate(
    session: Session,
    *,
    patch: Json,
    merged: Json,
    user_id: int,
    own_ids: set[int],
    parent_id: int | None = None,
) -> None:
    """Check the fields a save changes against the content they produce (merged)."""
    _lengths(patch)
    if patch.keys() & {
        "sectionCode",
        "resourceTypeId",
        "mainCategory",
        "runPlatformId",
        "contentCopyrightId",
        "resourceCopyrightId",
    }:
        _taxonomy(session, merged)
    if "relation" in patch:
        _relations(session, patch["relation"], own_ids)
    if "authors" in patch:
        _authors(session, patch["authors"])
    if "refLink" in patch:
        _ref_link(patch["refLink"])
    if patch.keys() & {"isPaid", "priceCurrencyCode", "priceAmount"}:
        _price(merged)
    _files(session, patch, user_id=user_id, parent_id=parent_id)


def missing_to_submit(merged: Json) -> list[str]:
    """The fields a submission still lacks."""
    return [name for name in REQUIRED_TO_SUBMIT if merged.get(name) in (None, "", [])]


def columns(session: Session, content: Json) -> dict[str, Any]:
    """The resource-post columns the content sets (what approval writes), by column name."""
    out = {COLUMNS[k]: v for k, v in content.items() if k in COLUMNS}
    if "priceAmount" in content:
        amount = content["priceAmount"]
        out["price_amount"] = Decimal(str(amount)) if amount is not None else None
    if "resourceTypeId" in content:
        rtype = session.get(Category, content["resourceTypeId"]) if content["resourceTypeId"] else None
        out["resource_type"] = rtype.code if rtype else None
    if "mainCategory" in content:
        ids = category_ids(content["mainCategory"])
        codes = (
            dict(session.execute(select(Category.id, Category.code).where(Category.id.in_(ids))).all())
            if ids
            else {}
        )
        out["main_categories"] = [codes[i] for i in ids if i in codes]
    if "runPlatformId" in content:
        rp = session.get(RunPlatform, content["runPlatformId"]) if content["runPlatformId"] else None
        out["run_platform"] = rp.code if rp else None
    for field, text, column in (
        ("contentCopyrightId", "contentCopyright", "content_copyright"),
        ("resourceCopyrightId", "resourceCopyright", "resource_copyright"),
    ):
        if content.get(field) is not None and content.get(text) is None:
            out[column] = copyright_code(content[field])
    keys = (
        {
            str(f.id): f.object_key
            for f in session.scalars(
                select(DraftFile).where(DraftFile.id.in_({int(i) for i in draft_file_ids(content)}))
            )
        }
        if draft_file_ids(content)
        else {}
    )
    if "coverFileId" in content:
        out["cover_image"] = keys.get(content["coverFileId"] or "")
    if "images" in content:
        out["display_images"] = [keys[i] for i in content["images"] or [] if i in keys]
    return {k: (DEFAULTS[k] if v is None and k in DEFAULTS else v) for k, v in out.items()}
