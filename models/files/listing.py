"""File reads: FileSummaryVO of a resource's files and of a batch of file ids."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import Row, Select, select
from sqlalchemy.orm import Session

from models.catalog.queries import get_listed_or_raise, listed_clause
from models.catalog.tables import ResourceFile, ResourcePost, RunPlatform
from models.files.records import file_summary
from models.files.vos import FileSummary
from modhub.core.display import Display


def visible_files() -> Select[ResourceFile]:
    """SELECT of files that may be shown: not deleted and in status NORMAL."""
    return select(ResourceFile).where(ResourceFile.is_delete.is_(False), ResourceFile.file_status == "NORMAL")


def platform_names(session: Session, files: list[ResourceFile]) -> dict[str, str]:
    """Run platform names of the files' platform codes, one query."""
    codes = {f.run_platform for f in files if f.run_platform}
    if not codes:
        return {}
    return dict(
        session.execute(select(RunPlatform.code, RunPlatform.name).where(RunPlatform.code.in_(codes))).all()
    )


def summaries(session: Session, files: list[ResourceFile], *, display: Display) -> list[FileSummary]:
    """FileSummaryVO of each file, run platform names loaded in one query."""
    names = platform_names(session, files)
    return [file_summary(f, platform_names=names, display=display) for f in files]


def list_files(session: Session, *, post_id: int, display: Display) -> list[FileSummary]:
    """FileSummaryVO of a listed resource's visible files, newest first."""
    get_listed_or_raise(session, post_id=post_id)
    files = list(
        session.scalars(
            visible_files()
            .where(ResourceFile.post_id == post_id)
            .order_by(ResourceFile.publish_time.desc(), ResourceFile.id.desc())
        )
    )
    return summaries(session, files, display=display)


def get_batch(session: Session, *, file_ids: list[int], display: Display) -> list[FileSummary | None]:
    """FileSummaryVO per requested id in request order: null for an unknown file, and files of
    resources that are not publicly visible dropped without an error."""
    rows: Sequence[Row[ResourceFile, bool]] = (
        session.execute(
            visible_files()
            .add_columns(listed_clause().label("public"))
            .join(ResourcePost, ResourcePost.id == ResourceFile.post_id)
            .where(ResourceFile.id.in_(set(file_ids)))
        )
    ).all()
    public = {f.id: f for f, is_public in rows if is_public}
    hidden = {f.id for f, is_public in rows if not is_public}
    by_id = {s["fileInfoId"]: s for s in summaries(session, list(public.values()), display=display)}
    return [by_id.get(i) for i in file_ids if i not in hidden]
