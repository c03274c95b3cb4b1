"""The storage sweep of lobby content: expired reservations, content nobody references any more,
and spool files left by killed uploads.

Mark and sweep instead of counters: the references are the rows themselves (UPLOADED lobby rows
that are not deleted, and community files stored under the same key), so no counter can drift.
Each content is removed under the lock of its lobby_blob row, re-checked under that lock, so a
concurrent reserve either sees it stored (and references it before the lock is released) or
finds it gone and asks for an upload.
"""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import delete, exists, select
from sqlalchemy.orm import InstrumentedAttribute
from sqlalchemy.sql.elements import ColumnElement

from models.catalog.tables import ResourceFile
from models.lobby.reserve import UPLOAD_WINDOW
from models.lobby.tables import PENDING, STORED, UPLOADED, LobbyBlob, LobbyResource
from models.lobby.uploads import Sessions
from models.types import utcnow
from modhub.core.storage import Storage

GRACE = dt.timedelta(hours=1)  # unreferenced content is kept this long after its last use


@dataclass
class SweepResult:
    """What one sweep removed."""

    reservations: int = 0
    contents: int = 0
    spool_files: int = 0


def _referenced(sha256_col: InstrumentedAttribute[str]) -> ColumnElement[bool]:
    lobby = exists().where(
        LobbyResource.sha256 == sha256_col,
        LobbyResource.state == UPLOADED,
        LobbyResource.is_delete.is_(False),
    )
    files = exists().where(
        ResourceFile.object_key == sha256_col,
        ResourceFile.storage_type == "DIRECT_UPLOAD",
        ResourceFile.is_delete.is_(False),
    )
    return lobby | files


def sweep(
    db: Sessions,
    storage: Storage,
    *,
    now: dt.datetime | None = None,
    grace: dt.timedelta = GRACE,
    progress: Callable[[str], None] | None = None,
) -> SweepResult:
    """Remove expired reservations, unreferenced content (rows and bytes) and stale spool files."""
    now = now or utcnow()
    result = SweepResult()
    with db.session() as session:
        expired = session.scalars(
            select(LobbyResource.id).where(
                LobbyResource.state == PENDING, LobbyResource.claim_expires_at < now
            )
        ).all()
        session.execute(
            delete(LobbyBlob).where(
                LobbyBlob.state == PENDING,
                (LobbyBlob.claim_expires_at.is_(None) | (LobbyBlob.claim_expires_at < now)),
            )
        )
        if expired:
            session.execute(delete(LobbyResource).where(LobbyResource.id.in_(expired)))
        session.commit()
        result.reservations = len(expired)
        candidates = session.scalars(
            select(LobbyBlob.sha256).where(
                LobbyBlob.state == STORED,
                LobbyBlob.touched_time < now - grace,
                ~_referenced(LobbyBlob.sha256),
            )
        ).all()
    for sha in candidates:
        with db.session() as session:
            blob = session.scalars(
                select(LobbyBlob)
                .where(
                    LobbyBlob.sha256 == sha,
                    LobbyBlob.state == STORED,
                    LobbyBlob.touched_time < now - grace,
                    ~_referenced(LobbyBlob.sha256),
                )
                .with_for_update(skip_locked=True)
            ).first()
            if blob is None:
                continue  # used again meanwhile, or being handled by another sweep
            session.delete(blob)
            session.flush()
            storage.delete(sha)  # under the row lock: a reserve waits for this to finish
            session.commit()
            result.contents += 1
            if progress:
                progress(f"removed {sha}")
    result.spool_files = _sweep_spool(storage, older_than=UPLOAD_WINDOW)
    return result


def _sweep_spool(storage: Storage, *, older_than: dt.timedelta) -> int:
    """Remove spool files of uploads that cannot still be running (a killed process's leftovers)."""
    folder: Path | None = getattr(storage, "spool_dir", None)  # the backends that spool have one
    if folder is None or not folder.exists():
        return 0
    limit, removed = time.time() - older_than.total_seconds(), 0
    for path in folder.glob("upload-*"):
        try:
            if path.stat().st_mtime < limit:
                path.unlink()
                removed += 1
        except FileNotFoundError:
            continue
    return removed
