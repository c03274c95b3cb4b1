"""Records of the review queue (the CLI prints them as JSON, the review page renders them)."""

from __future__ import annotations

from decimal import Decimal
from typing import TypedDict

from sqlalchemy.orm import Session

from models.authoring import review
from models.authoring.tables import ResourceDraft
from models.identity.tables import User
from modhub.core.display import Display


class ReviewItem(TypedDict):
    """One draft of the review queue."""

    draftId: int
    kind: str
    state: str
    title: str
    authorId: int
    authorName: str | None
    parentPostId: int | None
    baseVersion: int | None
    postVersion: int | None
    sectionCode: str
    submittedAt: str | None
    rejectReason: str | None


class ReviewChange(TypedDict):
    """One field approval would change: its published and its proposed value (JSON values)."""

    field: str
    published: object
    proposed: object


class ReviewDetail(ReviewItem):
    """A queue item with its changes."""

    changes: list[ReviewChange]


def _plain(value: object) -> object:
    return float(value) if isinstance(value, Decimal) else value


def review_item(session: Session, draft: ResourceDraft, *, display: Display) -> ReviewItem:
    """One draft of the queue: id, kind, state, title, author, parent and times."""
    author = session.get(User, draft.user_id)
    post = review.target_of(session, draft)
    return {
        "draftId": draft.id,
        "kind": draft.kind,
        "state": draft.state,
        "title": draft.content.get("mainName") or post.main_name,
        "authorId": draft.user_id,
        "authorName": author.username if author else None,
        "parentPostId": draft.parent_post_id,
        "baseVersion": draft.base_version,
        "postVersion": post.post_version if draft.parent_post_id else None,
        "sectionCode": draft.content.get("sectionCode") or post.section_code,
        "submittedAt": display.time(draft.submitted_at),
        "rejectReason": draft.reject_reason,
    }


def review_detail(session: Session, draft: ResourceDraft, *, display: Display) -> ReviewDetail:
    """A queue item with its diff against the published version (every field for a NEW draft)."""
    return {
        **review_item(session, draft, display=display),
        "changes": [
            {"field": f, "published": _plain(old), "proposed": _plain(new)}
            for f, old, new in review.diff(session, draft)
        ],
    }
