"""Records of the review queue (the CLI prints them as JSON, the review page renders them)."""

from __future__ import annotations

from decimal import Decimal

from sqlalchemy.orm import Session

from models.authoring import review
from models.authoring.tables import ResourceDraft
from models.identity.tables import User
from modhub.core.display import Display


def _plain(value):
    return float(value) if isinstance(value, Decimal) else value


def review_item(session: Session, draft: ResourceDraft, *, display: Display) -> dict:
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


def review_detail(session: Session, draft: ResourceDraft, *, display: Display) -> dict:
    """A queue item with its diff against the published version (every field for a NEW draft)."""
    return {
        **review_item(session, draft, display=display),
        "changes": [
            {"field": f, "published": _plain(old), "proposed": _plain(new)}
            for f, old, new in review.diff(session, draft)
        ],
    }
