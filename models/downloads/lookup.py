"""Launcher extensions: identify files by hash (files/lookup) and find their newest matching
files (files/updates). Two queries for 100 hashes, plus the summaries' own lookups."""

from __future__ import annotations

from sqlalchemy import ColumnElement, or_, select
from sqlalchemy.orm import Session

from models.catalog.queries import listed_clause
from models.catalog.queries import summaries as mod_summaries
from models.catalog.tables import ResourceFile, ResourcePost
from models.downloads.vos import FileHashMatch, FileUpdate
from models.files.listing import summaries as file_summaries
from models.files.listing import visible_files
from modhub.core.display import Display
from modhub.core.errors import ApiError

LENGTHS = {"sha1": 40, "sha256": 64, "sha512": 128}


def _normalized(algorithm: str, hashes: list[str]) -> list[str]:
    want = LENGTHS[algorithm]
    out = [h.lower() for h in hashes]
    bad = [i for i, h in enumerate(out) if len(h) != want]
    if bad:
        raise ApiError(
            "PARAMETER_INVALID", f"hashes[{bad[0]}] is not a {algorithm} digest ({want} hex characters)"
        )
    return out


def _public_files(session: Session, algorithm: str, hashes: list[str]) -> dict[str, ResourceFile]:
    """The first published visible file of a listed resource per hash."""
    column = getattr(ResourceFile, algorithm)
    rows = session.scalars(
        visible_files()
        .join(ResourcePost, ResourcePost.id == ResourceFile.post_id)
        .where(listed_clause(), column.in_(set(hashes)))
        .order_by(ResourceFile.publish_time, ResourceFile.id)
    )
    found: dict[str, ResourceFile] = {}
    for f in rows:
        found.setdefault(getattr(f, algorithm), f)
    return found


def lookup(
    session: Session, *, algorithm: str, hashes: list[str], display: Display
) -> list[FileHashMatch | None]:
    """FileHashMatchVO (file and resource) per hash, or null, in request order."""
    hashes = _normalized(algorithm, hashes)
    found = _public_files(session, algorithm, hashes)
    files = list({f.id: f for f in found.values()}.values())
    posts = list(
        {
            p.id: p
            for p in session.scalars(
                select(ResourcePost).where(ResourcePost.id.in_({f.post_id for f in files}))
            )
        }.values()
    )
    by_file = {s["fileInfoId"]: s for s in file_summaries(session, files, display=display)}
    by_post = {s["postId"]: s for s in mod_summaries(session, posts, display=display)}
    return [
        {"hash": h, "file": by_file[found[h].id], "mod": by_post[found[h].post_id]} if h in found else None
        for h in hashes
    ]


def _matching(run_platform: str | None, environment_side: str | None) -> list[ColumnElement[bool]]:
    """Conditions on a candidate file: a loader (files naming none match every loader) and a side
    (files for both sides match either)."""
    conditions: list[ColumnElement[bool]] = []
    if run_platform is not None:
        conditions.append(
            or_(
                ResourceFile.run_platform == run_platform,
                ResourceFile.run_platform.is_(None),
                ResourceFile.run_platform == "",
            )
        )
    if environment_side is not None:
        conditions.append(ResourceFile.environment_side.in_((environment_side, "BOTH")))
    return conditions


def _status(installed: ResourceFile | None, best: ResourceFile | None) -> str:
    if installed is None:
        return "UNKNOWN_HASH"
    if best is None:
        return "NO_MATCHING_FILE"
    return "UP_TO_DATE" if best.id == installed.id else "UPDATE_AVAILABLE"


def updates(
    session: Session,
    *,
    algorithm: str,
    hashes: list[str],
    game_version: str,
    run_platform: str | None = None,
    environment_side: str | None = None,
    display: Display,
) -> list[FileUpdate]:
    """FileUpdateVO per hash, in request order: its status and the newest visible file of the same
    resource for this game version (and run platform and side, when given)."""
    hashes = _normalized(algorithm, hashes)
    found = _public_files(session, algorithm, hashes)
    candidates = session.scalars(
        visible_files()
        .where(
            ResourceFile.post_id.in_({f.post_id for f in found.values()}),
            *_matching(run_platform, environment_side),
        )
        .order_by(ResourceFile.publish_time.desc(), ResourceFile.id.desc())
    )
    newest: dict[int, ResourceFile] = {}
    for f in candidates:
        if game_version in (f.resource_versions or []):
            newest.setdefault(f.post_id, f)
    by_file = {s["fileInfoId"]: s for s in file_summaries(session, list(newest.values()), display=display)}
    out: list[FileUpdate] = []
    for h in hashes:
        installed = found.get(h)
        best = newest.get(installed.post_id) if installed else None
        out.append(
            {
                "hash": h,
                "status": _status(installed, best),
                "installedFileInfoId": installed.id if installed else None,
                "upToDate": best is not None and installed is not None and best.id == installed.id,
                "file": by_file[best.id] if best else None,
            }
        )
    return out
