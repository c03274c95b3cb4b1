"""Files users upload for their drafts (the uploadDraftFile extension)."""

from __future__ import annotations

import datetime as dt
import re
from typing import BinaryIO, TypedDict

from sqlalchemy.orm import Session

from models.authoring.tables import DraftFile
from models.types import utcnow
from modhub.core.errors import ApiError
from modhub.core.storage import Storage, StorageError

_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


class DraftFileVO(TypedDict):
    """DraftFileVO."""

    fileId: str
    fileName: str
    size: int
    sha256: str


def draft_file_vo(row: DraftFile) -> DraftFileVO:
    """DraftFileVO."""
    return {"fileId": str(row.id), "fileName": row.file_name, "size": row.size, "sha256": row.sha256}


def upload(
    session: Session,
    storage: Storage,
    *,
    user_id: int,
    stream: BinaryIO,
    file_name: str | None,
    content_type: str | None,
    now: dt.datetime | None = None,
) -> DraftFileVO:
    """Store the stream (hashed while streaming, once per content) and record it for the user."""
    # a base name without control characters (PostgreSQL text cannot hold NUL)
    name = _CONTROL.sub("", (file_name or "").replace("\\", "/").rsplit("/", 1)[-1]).strip()[:255] or "file"
    content_type = _CONTROL.sub("", content_type or "")[:128] or None
    try:
        obj = storage.put(stream)
    except StorageError as exc:
        raise ApiError("DEPENDENCY_UNAVAILABLE", "the file store is unavailable") from exc
    row = DraftFile(
        user_id=user_id,
        object_key=obj.key,
        file_name=name,
        content_type=content_type,
        size=obj.size,
        sha1=obj.sha1,
        sha256=obj.sha256,
        sha512=obj.sha512,
        create_time=now or utcnow(),
    )
    session.add(row)
    session.flush()
    return draft_file_vo(row)
