"""reserve-batch and cancel: deduplication by sha256 across the whole store, one upload claim
per sha256 at a time.

Concurrency rule (written into the contract): the first reservation of content that is not
stored gets NEED_UPLOAD and holds the content's upload claim (its lobby_blob row, locked while
deciding, so concurrent reserves of one sha256 serialize on it). Any other reservation of the
same sha256 while that claim is live is REJECTED with a reason starting UPLOAD_IN_PROGRESS: the
caller reserves again later and then gets REUSE (once stored) or NEED_UPLOAD (when the claim was
cancelled or expired). Nobody uploads the same bytes twice at the same time.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import secrets
from collections.abc import Collection, Mapping, Sequence
from typing import Any, NamedTuple, Protocol

from sqlalchemy import case, delete, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from models.catalog.tables import ResourceFile
from models.lobby import records
from models.lobby.items import presign, unsafe_path_reason
from models.lobby.service import get_owned_post, release_claims
from models.lobby.tables import (
    PENDING,
    RESOURCE_TYPES,
    SIDES,
    STORED,
    TOMBSTONE,
    UPLOADED,
    LobbyBlob,
    LobbyResource,
)
from models.lobby.vos import ReserveBatchVO, ReserveItemVO
from models.types import utcnow
from modhub.core.errors import ApiError
from modhub.core.storage import Storage

TOKEN_TTL = dt.timedelta(hours=1)  # a NEED_UPLOAD token (and its claim) must be used within this
UPLOAD_WINDOW = dt.timedelta(hours=6)  # once started, an upload holds its claim this long at most
FRAMING = 16 * 1024  # room left in the upload body limit for the multipart framing


class UploadLimit(Protocol):
    """The setting a reservation's size limit is read from (modhub.settings.Settings has it)."""

    @property
    def max_upload_bytes(self) -> int: ...


class Reserved(NamedTuple):
    """An accepted reservation of content: its new row and the upload token (None: REUSE)."""

    row: LobbyResource
    sha256: str
    token: str | None


# What reserve decides for one item: a REJECTED result or a reservation.
Decision = ReserveItemVO | Reserved


def token_hash(token: str) -> str:
    """Upload tokens are stored only as their sha256."""
    return hashlib.sha256(token.encode()).hexdigest()


def max_file_bytes(settings: UploadLimit) -> int:
    """The largest file a reservation accepts: the upload body limit less the framing."""
    return settings.max_upload_bytes - FRAMING


def reject_reason(item: Mapping[str, Any], limit: int) -> str | None:
    """Why an item is refused before any lookup (None when it is acceptable)."""
    sha = item.get("sha256")
    if not isinstance(sha, str) or not records.SHA256_RE.fullmatch(sha):
        return "BAD_SHA256: sha256 must be 64 lowercase hexadecimal characters"
    size = item.get("sizeBytes")
    if not isinstance(size, int) or isinstance(size, bool) or size < 0:
        return "BAD_SIZE: sizeBytes must be a non-negative integer"
    if size > limit:
        return f"TOO_LARGE: sizeBytes {size} exceeds the upload limit of {limit} bytes"
    if item.get("resourceType") not in RESOURCE_TYPES:
        return f"BAD_RESOURCE_TYPE: resourceType must be one of {', '.join(RESOURCE_TYPES)}"
    if (item.get("environmentSide") or "BOTH") not in SIDES:
        return "BAD_ENVIRONMENT_SIDE: environmentSide must be SERVER, CLIENT or BOTH"
    if not isinstance(item.get("name"), str) or not item["name"].strip():
        return "BAD_NAME: name is required"
    reason = unsafe_path_reason(item.get("clientInstallPath"))
    return f"UNSAFE_PATH: {reason}" if reason else None


def _ensure_blobs(session: Session, shas: list[str], now: dt.datetime) -> None:
    """A PENDING lobby_blob row for every sha256 that has none (insert-or-ignore)."""
    insert = postgresql.insert if session.get_bind().dialect.name == "postgresql" else sqlite.insert
    session.execute(
        insert(LobbyBlob)
        .values([{"sha256": s, "state": PENDING, "create_time": now, "touched_time": now} for s in shas])
        .on_conflict_do_nothing(index_elements=["sha256"])
    )


def reserve(
    session: Session,
    storage: Storage,
    *,
    user_id: int,
    post_id: int,
    items: Sequence[Mapping[str, Any]],
    settings: UploadLimit,
    now: dt.datetime | None = None,
) -> ReserveBatchVO:
    """OpenApiServerPostLobbyReserveBatchVo: REUSE, NEED_UPLOAD or REJECTED per item, in order.
    postId 0 reserves into the user's staging area (before the post is published)."""
    now = now or utcnow()
    if post_id:
        get_owned_post(session, post_id=post_id, user_id=user_id)
    limit = max_file_bytes(settings)
    results: dict[int, ReserveItemVO] = {}  # by item index: every item gets one
    wanted: dict[str, int] = {}
    for i, item in enumerate(items):
        reason = reject_reason(item, limit)
        if reason is None and item["sha256"] in wanted:
            reason = (
                f"DUPLICATE_IN_BATCH: same sha256 as item {wanted[item['sha256']]}; "
                "one reservation covers the content (list it twice when publishing)"
            )
        if reason:
            results[i] = records.reserve_rejected(item.get("sha256"), reason)
        else:
            wanted[item["sha256"]] = i
    if wanted:
        shas = sorted(wanted)  # one lock order for every caller: no deadlock between batches
        _ensure_blobs(session, shas, now)
        blobs = {
            b.sha256: b
            for b in session.scalars(
                select(LobbyBlob)
                .where(LobbyBlob.sha256.in_(shas))
                .order_by(LobbyBlob.sha256)
                .with_for_update()
            )
        }
        files = _stored_files(session, shas)
        claims = _live_claims(
            session,
            [b.claim_resource_id for b in blobs.values() if b.state == PENDING and b.claim_resource_id],
            now,
        )
        decided = {
            i: _decide(
                session,
                storage,
                blob=blobs[sha],
                file=files.get(sha),
                live_claim=blobs[sha].claim_resource_id in claims,
                item=items[i],
                user_id=user_id,
                post_id=post_id or None,
                now=now,
            )
            for sha, i in wanted.items()
        }
        session.flush()  # every new row in one multi-row INSERT ... RETURNING
        for i, outcome in decided.items():
            results[i] = _result(outcome)
        _mark_blobs(session, decided.values(), now)
    return {"postId": post_id, "results": [results[i] for i in range(len(items))]}


def _result(outcome: Decision) -> ReserveItemVO:
    """The reserve result of a decision, once the new rows have their ids."""
    if not isinstance(outcome, Reserved):
        return outcome
    if outcome.token is None:
        return records.reserve_reuse(outcome.sha256, outcome.row)
    return records.reserve_upload(outcome.sha256, outcome.row, outcome.token)


def _mark_blobs(session: Session, outcomes: Collection[Decision], now: dt.datetime) -> None:
    """One UPDATE for the whole batch: every reused or claimed content is touched, every claimed
    one records its claiming row (an executemany would cost one round trip per item)."""
    reserved = [o for o in outcomes if isinstance(o, Reserved)]
    claimed = {o.sha256: o.row.id for o in reserved if o.token}
    if not reserved:
        return
    values: dict[str, Any] = {"touched_time": now}
    if claimed:
        values["claim_resource_id"] = case(claimed, value=LobbyBlob.sha256, else_=LobbyBlob.claim_resource_id)
        values["claim_expires_at"] = case(
            {s: now + TOKEN_TTL for s in claimed}, value=LobbyBlob.sha256, else_=LobbyBlob.claim_expires_at
        )
    session.execute(
        update(LobbyBlob)
        .where(LobbyBlob.sha256.in_({r.sha256 for r in reserved}))
        .values(**values)
        .execution_options(synchronize_session=False)
    )


def _stored_files(session: Session, shas: list[str]) -> dict[str, ResourceFile]:
    """Community files whose bytes are stored under these sha256 keys (the same store)."""
    rows = session.scalars(
        select(ResourceFile).where(
            ResourceFile.sha256.in_(shas),
            ResourceFile.object_key == ResourceFile.sha256,
            ResourceFile.storage_type == "DIRECT_UPLOAD",
            ResourceFile.is_delete.is_(False),
        )
    )
    return {f.sha256: f for f in rows if f.sha256}  # all of them: filtered on sha256


def _live_claims(session: Session, ids: list[int], now: dt.datetime) -> set[int]:
    if not ids:
        return set()
    return set(
        session.scalars(
            select(LobbyResource.id).where(
                LobbyResource.id.in_(ids),
                LobbyResource.state == PENDING,
                LobbyResource.claim_expires_at > now,
            )
        )
    )


def _decide(
    session: Session,
    storage: Storage,
    *,
    blob: LobbyBlob,
    file: ResourceFile | None,
    live_claim: bool,
    item: Mapping[str, Any],
    user_id: int,
    post_id: int | None,
    now: dt.datetime,
) -> Decision:
    """A REJECTED result, or the new row with its upload token (None for REUSE)."""
    sha: str = item["sha256"]  # checked by reject_reason
    if blob.state == PENDING and file is not None and not live_claim:
        blob.state, blob.size_bytes = STORED, file.file_size
        blob.sha1, blob.sha512, blob.claim_resource_id = file.sha1, file.sha512, None
    fields: dict[str, object] = {
        "user_id": user_id,
        "post_id": post_id,
        "source": "USER_UPLOAD",
        "sha256": sha,
        "size_bytes": item["sizeBytes"],
        "name": item["name"],
        "version": item.get("version"),
        "resource_type": item["resourceType"],
        "environment_side": item.get("environmentSide") or "BOTH",
        "client_install_path": item["clientInstallPath"],
        "extra_json": item.get("extraJson"),
        "create_time": now,
        "update_time": now,
    }
    if blob.state == STORED:
        if blob.size_bytes is not None and blob.size_bytes != item["sizeBytes"]:
            return records.reserve_rejected(
                sha, f"SIZE_MISMATCH: the stored content with this sha256 has {blob.size_bytes} bytes"
            )
        row = LobbyResource(**fields, state=UPLOADED, object_key=sha)
        presign(row, storage, now=now)
        session.add(row)
        return Reserved(row, sha, None)
    if live_claim:
        return records.reserve_rejected(
            sha,
            "UPLOAD_IN_PROGRESS: another reservation is uploading this content; reserve it "
            "again after that upload (REUSE) or after its claim ends at "
            f"{blob.claim_expires_at:%Y-%m-%dT%H:%M:%SZ}",
        )
    token = secrets.token_urlsafe(32)
    row = LobbyResource(
        **fields, state=PENDING, token_hash=token_hash(token), claim_expires_at=now + TOKEN_TTL
    )
    session.add(row)
    return Reserved(row, sha, token)


def get_owned_resource(
    session: Session, *, user_id: int, post_id: int, resource_id: int, lock: bool = False
) -> LobbyResource:
    """A live resource row of this user under postId (0 = staging), else 200404."""
    if post_id:
        get_owned_post(session, post_id=post_id, user_id=user_id)
    row = session.get(LobbyResource, resource_id, with_for_update=lock)
    if row is None or row.is_delete or row.user_id != user_id or (row.post_id or 0) != post_id:
        raise ApiError(
            "RECORD_NOT_FOUND", f"lobby resource {resource_id} does not exist in lobby post {post_id}"
        )
    return row


def cancel(
    session: Session, *, user_id: int, post_id: int, resource_id: int, now: dt.datetime | None = None
) -> bool:
    """PENDING: the row is deleted (and its claim dropped); UPLOADED: it becomes a tombstone
    (unlisted, references no bytes). False when it already is a tombstone."""
    now = now or utcnow()
    row = get_owned_resource(session, user_id=user_id, post_id=post_id, resource_id=resource_id, lock=True)
    if row.state == PENDING:
        release_claims(session, [row.id])
        session.execute(delete(LobbyResource).where(LobbyResource.id == row.id))
        return True
    if row.state == UPLOADED:
        row.state, row.listed, row.update_time = TOMBSTONE, False, now
        row.download_url = row.download_url_expires_at = row.token_hash = None
        session.flush()
        return True
    if row.state == TOMBSTONE:
        return False
    raise ApiError(
        "LOBBY_RESOURCE_STATE",
        f"lobby resource {resource_id} is a listed {row.source} item: change the list with update",
    )
