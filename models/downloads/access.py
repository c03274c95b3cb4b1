"""Who may download a resource's on-site files: the one place entitlements are checked.

PUBLIC free resources: anyone (no user). REGISTERED: a known proxy user. MEMBERS and paid
resources: a proxy user who holds an entitlement for the resource (granted by an operator with
`modhub admin entitlement grant`, later by a wallet purchase) or is one of its authors.
"""

from __future__ import annotations

from sqlalchemy import exists, select
from sqlalchemy.orm import Session

from models.catalog.tables import ResourceAuthor, ResourcePost
from models.downloads.tables import Entitlement
from models.identity.tables import User
from models.types import utcnow
from modhub.core.errors import ApiError


def needs_user(post: ResourcePost) -> bool:
    """Whether downloads of the resource are bound to a proxy user."""
    return post.is_paid or post.download_permission in ("REGISTERED", "MEMBERS")


def needs_entitlement(post: ResourcePost) -> bool:
    """Whether the proxy user must own the resource (paid, or MEMBERS download permission)."""
    return post.is_paid or post.download_permission == "MEMBERS"


def denial(session: Session, post: ResourcePost, user_id: int | None) -> str | None:
    """None when the user (or nobody) may download the resource's files, else the catalog name of
    the refusal: DOWNLOAD_USER_REQUIRED or ENTITLEMENT_REQUIRED. One query at most."""
    if not needs_user(post):
        return None
    if user_id is None:
        return "DOWNLOAD_USER_REQUIRED"
    if post.user_id == user_id:
        return None
    if not needs_entitlement(post):
        known = session.scalar(select(exists().where(User.id == user_id)))
        return None if known else "DOWNLOAD_USER_REQUIRED"
    owns = session.scalar(
        select(
            exists().where(Entitlement.user_id == user_id, Entitlement.post_id == post.id)
            | exists().where(ResourceAuthor.user_id == user_id, ResourceAuthor.post_id == post.id)
        )
    )
    return None if owns else "ENTITLEMENT_REQUIRED"


def require(session: Session, post: ResourcePost, user_id: int | None) -> None:
    """Raise the refusal of `denial`, if any."""
    reason = denial(session, post, user_id)
    if reason:
        raise ApiError(reason)


def grant(session: Session, *, user_id: int, post_id: int, source: str = "ADMIN") -> bool:
    """Give a user the entitlement to a resource; False when it already held one."""
    if session.get(User, user_id) is None:
        raise ApiError("RECORD_NOT_FOUND", f"user {user_id} does not exist")
    post = session.get(ResourcePost, post_id)
    if post is None or post.is_delete:
        raise ApiError("RECORD_NOT_FOUND", f"resource {post_id} does not exist")
    held = session.scalar(
        select(Entitlement).where(Entitlement.user_id == user_id, Entitlement.post_id == post_id)
    )
    if held is not None:
        return False
    session.add(Entitlement(user_id=user_id, post_id=post_id, source=source, granted_at=utcnow()))
    session.flush()
    return True


def revoke(session: Session, *, user_id: int, post_id: int) -> bool:
    """Take an entitlement back; False when there was none."""
    held = session.scalar(
        select(Entitlement).where(Entitlement.user_id == user_id, Entitlement.post_id == post_id)
    )
    if held is None:
        return False
    session.delete(held)
    session.flush()
    return True
