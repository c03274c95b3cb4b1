"""Moderation: the review queue, and approval or rejection of a submitted draft.

Approval writes the draft's content onto the resource post and publishes through
models.lifecycle, so resource.published (a NEW draft) or resource.updated (an EDIT) is raised in
the same transaction, the sync feed moves and search sees the change. The author is notified.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from models.authoring import content as c
from models.authoring.authors import parse_authors
from models.authoring.tables import (
    EDIT,
    NEW,
    PENDING_REVIEW,
    PUBLISHED,
    REJECTED,
    ResourceDraft,
    ReviewDecision,
)
from models.catalog import lifecycle
from models.catalog.tables import (
    ResourceAuthor,
    ResourceFile,
    ResourcePost,
    ResourceRelation,
    ResourceVersion,
)
from models.community.tables import Notification
from models.console.tables import SiteRole
from models.types import utcnow
from modhub.core.display import Display
from modhub.core.errors import ApiError

MODERATOR_ROLES = ("moderator", "admin")
MAX_REASON = 1000


def can_moderate(session: Session, *, user_id: int) -> bool:
    """Whether the user holds the moderator (or admin) site role."""
    row = session.get(SiteRole, user_id)
    return row is not None and row.role in MODERATOR_ROLES


def queue(session: Session, *, state: str = PENDING_REVIEW, limit: int = 100) -> list[ResourceDraft]:
    """Drafts in a review state, the longest waiting first."""
    return list(
        session.scalars(
            select(ResourceDraft)
            .where(ResourceDraft.state == state)
            .order_by(ResourceDraft.submitted_at, ResourceDraft.id)
            .limit(limit)
        )
    )


def get_or_raise(session: Session, *, draft_id: int, lock: bool = False) -> ResourceDraft:
    """A draft by id (moderators see every draft)."""
    draft = session.get(ResourceDraft, draft_id, with_for_update=lock)
    if draft is None:
        raise ApiError("RECORD_NOT_FOUND", f"draft {draft_id} does not exist")
    return draft


def target_of(session: Session, draft: ResourceDraft) -> ResourcePost:
    """The post approval changes: the draft's own (NEW) or the published parent (EDIT)."""
    return _post(session, draft.parent_post_id if draft.kind == EDIT else draft.id)


def _post(session: Session, post_id: int | None, *, lock: bool = False) -> ResourcePost:
    """A post row a draft points at (every draft has one: its own, and its parent when EDIT)."""
    post = None if post_id is None else session.get(ResourcePost, post_id, with_for_update=lock)
    if post is None:
        raise ApiError("RECORD_NOT_FOUND", f"resource {post_id} does not exist")
    return post


def diff(session: Session, draft: ResourceDraft) -> list[tuple[str, object, object]]:
    """(column, published value, proposed value) of each column approval would change."""
    post = target_of(session, draft)
    rows = []
    for column, proposed in sorted(c.columns(session, draft.content).items()):
        current = getattr(post, column) if draft.kind == EDIT else None
        if isinstance(current, Decimal) and proposed is not None:
            proposed = Decimal(proposed)
        if current != proposed:
            rows.append((column, current, proposed))
    for name in ("relation", "authors", "resourceFileInfoVos", "updateCommit"):
        if name in draft.content:
            rows.append((name, None, draft.content[name]))
    return rows


def _decide(
    session: Session,
    draft: ResourceDraft,
    *,
    reviewer_id: int | None,
    action: str,
    reason: str | None,
    now: dt.datetime,
) -> None:
    session.add(
        ReviewDecision(
            draft_id=draft.id, reviewer_id=reviewer_id, action=action, reason=reason, created_at=now
        )
    )
    draft.reviewed_at, draft.reviewer_id = now, reviewer_id


def _notify(
    session: Session, draft: ResourceDraft, post: ResourcePost, title: str, text: str, now: dt.datetime
) -> None:
    session.add(
        Notification(
            user_id=draft.user_id,
            message_type="SYSTEM",
            title=title,
            content=text[:500],
            entity_type="RESOURCE_POST",
            entity_id=post.id,
            create_time=now,
        )
    )


def reject(
    session: Session,
    *,
    draft_id: int,
    reason: str,
    reviewer_id: int | None = None,
    now: dt.datetime | None = None,
) -> ResourceDraft:
    """PENDING_REVIEW -> REJECTED with a reason; the author is notified with it."""
    reason = (reason or "").strip()
    if not reason or len(reason) > MAX_REASON:
        raise ApiError("PARAMETER_INVALID", f"a rejection needs a reason (1 to {MAX_REASON} characters)")
    now = now or utcnow()
    draft = get_or_raise(session, draft_id=draft_id, lock=True)
    if draft.state != PENDING_REVIEW:
        raise ApiError("REVIEW_NOT_PENDING", f"draft {draft_id} is {draft.state}")
    draft.state, draft.reject_reason = REJECTED, reason
    _decide(session, draft, reviewer_id=reviewer_id, action="REJECT", reason=reason, now=now)
    post = target_of(session, draft)
    name = draft.content.get("mainName") or post.main_name or f"#{post.id}"
    _notify(
        session,
        draft,
        post,
        "Resource change rejected",
        f'Your {"edit of" if draft.kind == EDIT else "draft"} "{name}" was rejected: {reason}',
        now,
    )
    session.flush()
    return draft


def _replace_parts(session: Session, draft: ResourceDraft, post: ResourcePost, now: dt.datetime) -> None:
    content = draft.content
    if "relation" in content:
        session.execute(delete(ResourceRelation).where(ResourceRelation.post_id == post.id))
        for kind, i, item in c.relation_items(content["relation"]):
            session.add(
                ResourceRelation(
                    post_id=post.id,
                    relation_type=kind,
                    sort_order=i,
                    target_post_id=item["postId"],
                    is_required=bool(item.get("required")),
                )
            )
    if "authors" in content or draft.kind == NEW:
        owner = post.user_id or draft.user_id  # the creator stays the first OWNER
        session.execute(delete(ResourceAuthor).where(ResourceAuthor.post_id == post.id))
        session.add(ResourceAuthor(post_id=post.id, user_id=owner, role="OWNER"))
        others = [a for a in parse_authors(content.get("authors")) if a["userId"] != owner]
        for i, a in enumerate(others):
            session.add(
                ResourceAuthor(post_id=post.id, user_id=a["userId"], role=a["role"], sort_order=i + 1)
            )
    if content.get("resourceFileInfoVos") is not None:
        _replace_files(session, draft, post, content["resourceFileInfoVos"], now)


def _replace_files(
    session: Session, draft: ResourceDraft, post: ResourcePost, entries: list[c.Json], now: dt.datetime
) -> None:
    kept = {e["infoId"] for e in entries if e.get("infoId") is not None}
    for f in session.scalars(
        select(ResourceFile).where(ResourceFile.post_id == post.id, ResourceFile.is_delete.is_(False))
    ):
        if f.id not in kept:
            f.is_delete, f.update_time = True, now
    uploads = c.owned_files(
        session, user_id=draft.user_id, ids=[e["directFileId"] for e in entries if e.get("directFileId")]
    )
    for i, e in enumerate(entries):
        if e.get("infoId") is not None:
            continue
        up = uploads.get(e.get("directFileId") or "")
        common = {
            "post_id": post.id,
            "title": e.get("infoTitle") or (up.file_name if up else "file"),
            "file_version": e.get("fileVersion"),
            "resource_versions": e.get("resourceVersion") or [],
            "run_platform": e.get("runPlatform"),
            "sort_order": i,
            "publish_time": now,
            "update_time": now,
        }
        if up is not None:
            session.add(
                ResourceFile(
                    **common,
                    storage_type="DIRECT_UPLOAD",
                    object_key=up.object_key,
                    file_name=e.get("directFileName") or up.file_name,
                    file_size=up.size,
                    sha1=up.sha1,
                    sha256=up.sha256,
                    sha512=up.sha512,
                )
            )
        else:
            session.add(
                ResourceFile(
                    **common,
                    storage_type="DIRECT_LINK",
                    external_url=e.get("directFileUrl"),
                    file_name=e.get("directFileName"),
                    file_size=e.get("directFileSize"),
                )
            )


def approve(
    session: Session,
    *,
    draft_id: int,
    display: Display,
    reviewer_id: int | None = None,
    now: dt.datetime | None = None,
) -> ResourcePost:
    """PENDING_REVIEW -> PUBLISHED: write the content onto the post and publish it through the
    lifecycle (resource.published for a NEW draft, resource.updated with postVersion + 1 for an
    EDIT); POST_VERSION_STALE when the edited post moved since the edit was based on it."""
    now = now or utcnow()
    draft = get_or_raise(session, draft_id=draft_id, lock=True)
    if draft.state != PENDING_REVIEW:
        raise ApiError("REVIEW_NOT_PENDING", f"draft {draft_id} is {draft.state}")
    post = _post(session, target_of(session, draft).id, lock=True)
    columns = c.columns(session, draft.content)
    if draft.kind == EDIT:
        if post.is_delete or post.status != "PUBLISHED":
            raise ApiError("RESOURCE_NOT_PUBLISHED", f"resource {post.id} is no longer published")
        if post.post_version != draft.base_version:
            raise ApiError(
                "POST_VERSION_STALE",
                f"resource {post.id} moved to postVersion "
                f"{post.post_version} after this edit (based on {draft.base_version})",
            )
        updatable = {k: v for k, v in columns.items() if k in lifecycle.UPDATABLE}
        for name, value in columns.items():
            if name not in updatable:
                setattr(post, name, value)
        post.post_version += 1
        _replace_parts(session, draft, post, now)
        _version(session, draft, post, now, columns.get("resource_version", post.resource_version))
        _post(session, draft.id).status = "ARCHIVED"  # the draft row: a chain entry
        lifecycle.update_resource(
            session,
            post_id=post.id,
            display=display,
            now=now,
            **(updatable or {"main_name": post.main_name}),
        )
    else:
        for name, value in {**c.DEFAULTS, **columns}.items():
            setattr(post, name, value)
        post.user_id, post.post_version = draft.user_id, 1
        _replace_parts(session, draft, post, now)
        _version(session, draft, post, now, post.resource_version)
        lifecycle.publish_resource(session, post_id=post.id, display=display, now=now)
    draft.state = PUBLISHED
    _decide(session, draft, reviewer_id=reviewer_id, action="APPROVE", reason=None, now=now)
    _notify(
        session,
        draft,
        post,
        "Resource change approved",
        f'"{post.main_name}" is published (postVersion {post.post_version}).',
        now,
    )
    session.flush()
    return post


def _version(
    session: Session, draft: ResourceDraft, post: ResourcePost, now: dt.datetime, resource_version: str | None
) -> None:
    session.add(
        ResourceVersion(
            post_id=post.id,
            version_post_id=draft.id,
            version_number=post.post_version,
            resource_version=resource_version,
            update_commit=draft.content.get("updateCommit"),
            publish_time=now,
        )
    )
