"""The upload of a reserved resource, in three short transactions around the streaming.

1. claim: the one-time token is checked and burnt (committed before the body is read, so a
   second use fails at once, even concurrently);
2. stream: the file part goes to the storage, hashed while it streams, verified against the
   reserved size and sha256 before it reaches its content address (nothing is stored otherwise);
3. finish: the row becomes UPLOADED and the content STORED; or, on any failure, the reservation
   is void (row deleted, claim dropped): the caller reserves again.

These functions commit (each step is its own transaction, like a worker job): the request's
session must not stay open across a long upload.

Lock order everywhere: the resource row first, then its lobby_blob row (reserve and the sweep
lock blob rows only), so concurrent uploads, cancels and closes cannot deadlock.
"""

from __future__ import annotations

import datetime as dt
import hmac
from typing import Protocol

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from models.catalog.tables import ResourceFile
from models.lobby import records
from models.lobby.items import presign
from models.lobby.reserve import UPLOAD_WINDOW, get_owned_resource, token_hash
from models.lobby.tables import PENDING, STORED, UPLOADED, LobbyBlob, LobbyResource
from models.lobby.vos import UploadResultVO
from modhub.core.errors import ApiError
from modhub.core.multipart_stream import BodyIncomplete, MultipartError
from modhub.core.storage import ContentMismatch, Expected, Readable, Storage, StoredObject


class Sessions(Protocol):
    """Where each step opens its own session (modhub.db.Database)."""

    def session(self) -> Session: ...


def claim(
    db: Sessions, *, user_id: int, post_id: int, resource_id: int, token: str, now: dt.datetime
) -> Expected:
    """Check and burn the upload token; returns what the upload must deliver."""
    with db.session() as session:
        row = get_owned_resource(
            session, user_id=user_id, post_id=post_id, resource_id=resource_id, lock=True
        )
        blob = session.get(LobbyBlob, row.sha256, with_for_update=True) if row.sha256 else None
        if (
            row.state != PENDING
            or row.sha256 is None  # a reservation declares both: a row without them is no claim
            or row.size_bytes is None
            or not row.token_hash
            or blob is None
            or blob.claim_resource_id != row.id
            or row.claim_expires_at is None
            or row.claim_expires_at <= now
            or not hmac.compare_digest(row.token_hash, token_hash(token or ""))
        ):
            raise ApiError("LOBBY_UPLOAD_TOKEN_INVALID")
        row.token_hash = None
        row.claim_expires_at = blob.claim_expires_at = now + UPLOAD_WINDOW
        expected = Expected(size=row.size_bytes, sha256=row.sha256)
        session.commit()
    return expected


def void(db: Sessions, *, resource_id: int) -> None:
    """Drop a reservation whose upload failed: its row and its claim."""
    with db.session() as session:  # locks the row, then the blob (the order of claim())
        session.get(LobbyResource, resource_id, with_for_update=True)
        session.execute(
            delete(LobbyBlob).where(LobbyBlob.state == PENDING, LobbyBlob.claim_resource_id == resource_id)
        )
        session.execute(
            delete(LobbyResource).where(LobbyResource.id == resource_id, LobbyResource.state == PENDING)
        )
        session.commit()


def store(
    db: Sessions, storage: Storage, *, resource_id: int, expected: Expected, reader: Readable
) -> StoredObject:
    """Stream the file part into the storage, verified; any failure voids the reservation."""
    try:
        return storage.put(reader, expected)
    except ContentMismatch as exc:
        void(db, resource_id=resource_id)
        name = "LOBBY_HASH_MISMATCH" if exc.what == "sha256" else "LOBBY_SIZE_MISMATCH"
        raise ApiError(name, f"{exc}; nothing was stored, reserve again") from exc
    except MultipartError as exc:
        void(db, resource_id=resource_id)
        raise ApiError("PARAMETER_INVALID", f"{exc}; nothing was stored, reserve again") from exc
    except BodyIncomplete as exc:
        void(db, resource_id=resource_id)
        raise ApiError("LOBBY_UPLOAD_INCOMPLETE") from exc
    except BaseException:
        void(db, resource_id=resource_id)
        raise


def finish(
    db: Sessions, storage: Storage, *, resource_id: int, obj: StoredObject, now: dt.datetime
) -> UploadResultVO:
    """Mark the content STORED and the row UPLOADED; OpenApiServerPostLobbyUploadResultVo."""
    with db.session() as session:
        row = session.get(LobbyResource, resource_id, with_for_update=True)  # row, then blob:
        blob = session.get(LobbyBlob, obj.sha256, with_for_update=True)  # the order of claim()
        if row is None or row.state != PENDING or blob is None or blob.claim_resource_id != row.id:
            session.rollback()  # released while uploading (cancelled, or its claim ran out)
            if blob is None and not _file_uses(session, obj.key):
                storage.delete(obj.key)  # nobody else holds or uses this content: no orphan bytes
            raise ApiError(
                "LOBBY_RESOURCE_STATE",
                f"lobby resource {resource_id} was released "
                "while uploading (its claim expired); reserve again",
            )
        blob.state, blob.size_bytes, blob.sha1, blob.sha512 = STORED, obj.size, obj.sha1, obj.sha512
        blob.claim_resource_id = blob.claim_expires_at = None
        blob.touched_time = now
        row.state, row.object_key, row.claim_expires_at, row.update_time = UPLOADED, obj.key, None, now
        presign(row, storage, now=now)
        result = records.upload_result(row)
        session.commit()
    return result


def _file_uses(session: Session, key: str) -> bool:
    """Whether a community file's record references stored bytes under this key."""
    return (
        session.scalar(
            select(ResourceFile.id)
            .where(ResourceFile.object_key == key, ResourceFile.is_delete.is_(False))
            .limit(1)
        )
        is not None
    )
