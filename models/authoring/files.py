"""Files users upload for their drafts (the uploadDraftFile extension)."""

from __future__ import annotations

import datetime as dt
from typing import BinaryIO

from sqlalchemy.orm import Session

from models.authoring.tables import DraftFile
from models.types import utcnow
from modhub.core.storage import StorageError
from modhub.errors import ApiError


def draft_file_vo(row: DraftFile) -> dict:
    """DraftFileVO."""
    return {"fileId": str(row.id), "fileName": row.file_name, "size": row.size, "sha256": row.sha256}


def upload(session: Session, storage, *, user_id: int, stream: BinaryIO, file_name: str | None,
           content_type: str | None, now: dt.datetime | None = None) -> dict:
    """Store the stream (hashed while streaming, once per content) and record it for the user."""
    name = (file_name or "file").replace("\\", "/").rsplit("/", 1)[-1].strip()[:255] or "file"
    try:
        obj = storage.put(stream)
    except StorageError as exc:
        raise ApiError("DEPENDENCY_UNAVAILABLE", "the file store is unavailable") from exc
    row = DraftFile(user_id=user_id, object_key=obj.key, file_name=name,
                    content_type=(content_type or None) and content_type[:128], size=obj.size,
                    sha1=obj.sha1, sha256=obj.sha256, sha512=obj.sha512, create_time=now or utcnow())
    session.add(row)
    session.flush()
    return draft_file_vo(row)
