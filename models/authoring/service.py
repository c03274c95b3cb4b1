"""What an author does with drafts: start, save, submit for review, edit a published resource.

State moves (see the contract's authoring tag): DRAFT -save-> DRAFT, DRAFT/REJECTED -submit->
PENDING_REVIEW, REJECTED -save-> DRAFT; PENDING_REVIEW and PUBLISHED drafts are frozen (200701).
Moderation (models.authoring.review) moves PENDING_REVIEW to PUBLISHED or REJECTED.
"""

from __future__ import annotations

import datetime as dt

from sqlalchemy import select
from sqlalchemy.orm import Session

from models.authoring import content as c
from models.authoring.tables import DRAFT, EDIT, NEW, PENDING_REVIEW, REJECTED, ResourceDraft
from models.catalog.tables import ResourceAuthor, ResourcePost
from models.types import utcnow
from modhub.core.errors import ApiError

OPEN = (DRAFT, PENDING_REVIEW, REJECTED)


def _new_row(
    session: Session, *, user_id: int, kind: str, parent: ResourcePost | None, now: dt.datetime
) -> ResourceDraft:
    # The draft's own resource_post row gives it an id from the post id space; never listed.
    post = ResourcePost(
        section_code=parent.section_code if parent else "",
        main_name=parent.main_name if parent else "",
        user_id=user_id,
        status="DRAFT",
        parent_post_id=parent.id if parent else None,
        publish_time=None,
        update_time=now,
        main_categories=[],
        tags=[],
        display_images=[],
    )
    session.add(post)
    session.flush()
    draft = ResourceDraft(
        id=post.id,
        user_id=user_id,
        kind=kind,
        state=DRAFT,
        parent_post_id=parent.id if parent else None,
        base_version=parent.post_version if parent else None,
        content={},
        create_time=now,
        update_time=now,
    )
    session.add(draft)
    session.flush()
    return draft


def get_owned(session: Session, *, user_id: int, draft_id: int, lock: bool = True) -> ResourceDraft:
    """A draft of this user (another user's or an unknown id is RECORD_NOT_FOUND)."""
    draft = session.get(ResourceDraft, draft_id, with_for_update=lock)
    if draft is None or draft.user_id != user_id:
        raise ApiError("RECORD_NOT_FOUND", f"draft {draft_id} does not exist")
    return draft


def _editable(draft: ResourceDraft) -> None:
    if draft.state not in (DRAFT, REJECTED):
        raise ApiError(
            "DRAFT_NOT_EDITABLE",
            f"draft {draft.id} is {draft.state}: "
            + (
                "wait for the review"
                if draft.state == PENDING_REVIEW
                else "it is published; edit the resource instead"
            ),
        )


def is_owner(session: Session, post: ResourcePost, user_id: int) -> bool:
    """Whether the user owns the post (its creator or an OWNER author)."""
    if post.user_id == user_id:
        return True
    return (
        session.scalar(
            select(ResourceAuthor.id).where(
                ResourceAuthor.post_id == post.id,
                ResourceAuthor.user_id == user_id,
                ResourceAuthor.role == "OWNER",
            )
        )
        is not None
    )


def editable_parent(session: Session, *, user_id: int, post_id: int) -> ResourcePost:
    """The published post the user may edit, locked."""
    post = session.get(ResourcePost, post_id, with_for_update=True)
    if post is None or post.is_delete or post.status == "DRAFT":
        raise ApiError("RECORD_NOT_FOUND", f"resource {post_id} does not exist")
    if not is_owner(session, post, user_id):
        raise ApiError("NOT_RESOURCE_OWNER", f"resource {post_id} belongs to another user")
    if post.status != "PUBLISHED":
        raise ApiError("RESOURCE_NOT_PUBLISHED", f"resource {post_id} is {post.status}")
    return post


def _check_version(parent: ResourcePost, version: int | None) -> int:
    if version is not None and version != parent.post_version:
        raise ApiError(
            "POST_VERSION_STALE",
            f"resource {parent.id} is at postVersion {parent.post_version}, this edit is based on {version}",
        )
    return parent.post_version


def _edit_draft(session: Session, *, user_id: int, parent: ResourcePost, now: dt.datetime) -> ResourceDraft:
    """The user's open EDIT draft of the post, or a new one."""
    draft = session.scalar(
        select(ResourceDraft)
        .where(
            ResourceDraft.parent_post_id == parent.id,
            ResourceDraft.user_id == user_id,
            ResourceDraft.kind == EDIT,
            ResourceDraft.state.in_(OPEN),
        )
        .with_for_update()
    )
    return draft or _new_row(session, user_id=user_id, kind=EDIT, parent=parent, now=now)


def _published_view(parent: ResourcePost) -> c.Json:
    view = {api: getattr(parent, col) for api, col in c.COLUMNS.items()}
    view["priceAmount"] = parent.price_amount
    return view


def _save(
    session: Session, draft: ResourceDraft, body: c.Json, *, now: dt.datetime, submit: bool = False
) -> None:
    _editable(draft)
    patch = c.patch_of(body)
    parent = session.get(ResourcePost, draft.parent_post_id) if draft.kind == EDIT else None
    if parent is not None:
        draft.base_version = _check_version(parent, body.get("postVersion"))
    content = patch if body.get("isAllEdit") else {**draft.content, **patch}
    merged = {**(_published_view(parent) if parent else {}), **content}
    # a submission checks every field it carries again (taxonomy or targets may have gone)
    c.validate(
        session,
        patch=content if submit else patch,
        merged=merged,
        user_id=draft.user_id,
        own_ids={draft.id, parent.id} if parent else {draft.id},
        parent_id=parent.id if parent else None,
    )
    draft.content = content
    if draft.state == REJECTED:
        draft.state = DRAFT
    draft.update_time = now
    session.flush()


def _submit(draft: ResourceDraft, *, now: dt.datetime) -> None:
    if draft.kind == NEW:
        missing = c.missing_to_submit(draft.content)
        if missing:
            raise ApiError("DRAFT_INCOMPLETE", f"missing to submit: {', '.join(missing)}")
    elif not draft.content:
        raise ApiError("DRAFT_INCOMPLETE", "the edit changes nothing")
    else:
        cleared = [
            k for k in c.REQUIRED_TO_SUBMIT if k in draft.content and draft.content[k] in (None, "", [])
        ]
        if cleared:
            raise ApiError("DRAFT_INCOMPLETE", f"an edit cannot clear: {', '.join(cleared)}")
    draft.state, draft.submitted_at, draft.reject_reason = PENDING_REVIEW, now, None


def init_draft(session: Session, *, user_id: int, body: c.Json, now: dt.datetime | None = None) -> int:
    """A NEW draft from BaseOpenApiInitDraftParam; its id."""
    now = now or utcnow()
    patch = {
        "sectionCode": body["sectionCode"],
        "resourceTypeId": body["resourceTypeId"],
        "mainCategory": body["categoryId"],
    }
    if body.get("title"):
        patch["mainName"] = body["title"]
    if body.get("presetCategory"):
        patch["presetCategory"] = body["presetCategory"]
    c.validate(session, patch=patch, merged=patch, user_id=user_id, own_ids=set())
    draft = _new_row(session, user_id=user_id, kind=NEW, parent=None, now=now)
    draft.content = patch
    session.flush()
    return draft.id


def save_draft(
    session: Session, *, user_id: int, draft_id: int, body: c.Json, now: dt.datetime | None = None
) -> ResourceDraft:
    """Save into draft_id (0: a new draft; an EDIT one when parentPostId is given)."""
    now = now or utcnow()
    if draft_id == 0:
        parent_id = body.get("parentPostId")
        if parent_id is not None:
            parent = editable_parent(session, user_id=user_id, post_id=parent_id)
            draft = _edit_draft(session, user_id=user_id, parent=parent, now=now)
        else:
            draft = _new_row(session, user_id=user_id, kind=NEW, parent=None, now=now)
    else:
        draft = get_owned(session, user_id=user_id, draft_id=draft_id)
    _save(session, draft, body, now=now)
    return draft


def publish_draft(
    session: Session, *, user_id: int, draft_id: int, body: c.Json, now: dt.datetime | None = None
) -> bool:
    """Save the body into the draft and submit it for review."""
    now = now or utcnow()
    draft = get_owned(session, user_id=user_id, draft_id=draft_id)
    _save(session, draft, body, now=now, submit=True)
    _submit(draft, now=now)
    session.flush()
    return True


def edit_resource(
    session: Session, *, user_id: int, post_id: int, body: c.Json, now: dt.datetime | None = None
) -> bool:
    """Save the changes into the user's EDIT draft of the post and submit it for review."""
    now = now or utcnow()
    parent = editable_parent(session, user_id=user_id, post_id=post_id)
    _check_version(parent, body.get("postVersion"))
    draft = _edit_draft(session, user_id=user_id, parent=parent, now=now)
    _save(session, draft, body, now=now, submit=True)
    _submit(draft, now=now)
    session.flush()
    return True
