"""Consumer reports: download failures (merged by fingerprint, counts summed; enough distinct
votes hide the resource until an operator restores it), usefulness snapshots, and the
feedback an operator resolved, read back by the reporting application.

Votes: a user acting with its own proxy token is one vote, whatever application carries it;
everything else an application sends (user ids it merely names, its callers' addresses) is one
vote of that application. An application opens at most a daily number of new reports."""

from __future__ import annotations

import datetime as dt
import uuid
from typing import Protocol

from sqlalchemy import delete, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from models.catalog import lifecycle
from models.catalog.queries import get_listed_or_raise
from models.catalog.tables import ResourceFile, ResourcePost
from models.downloads.tables import FailureReporter, Feedback
from models.downloads.vos import DownloadFailureParam, ResolvedFeedback, UserFeedbackParam
from models.types import rowcount, utcnow
from modhub.core.display import Display, parse_local_time
from modhub.core.errors import ApiError


class ReportSettings(Protocol):
    """The settings of download-failure reports (modhub.settings.Settings has them): new reports
    an application may open a day, and distinct votes that hide a resource (0: never)."""

    @property
    def download_failure_reports_per_app_day(self) -> int: ...
    @property
    def download_failure_hide_threshold(self) -> int: ...


def _check_file(session: Session, post_id: int, file_id: int | None) -> None:
    if file_id is not None:
        f = session.get(ResourceFile, file_id)
        if f is None or f.post_id != post_id:
            raise ApiError("RECORD_NOT_FOUND", f"file {file_id} does not exist in resource {post_id}")


def _merge(
    session: Session, *, app_id: int, post_id: int, kind: str, fingerprint: str, now: dt.datetime
) -> Feedback:
    """The report row of (application, resource, kind, fingerprint), locked, created when new.
    A report of a fingerprint already resolved opens it again."""
    key = (
        Feedback.app_id == app_id,
        Feedback.post_id == post_id,
        Feedback.kind == kind,
        Feedback.fingerprint == fingerprint,
    )
    row = session.scalar(select(Feedback).where(*key).with_for_update())
    if row is None:
        try:  # a concurrent first report of the same fingerprint may win the insert
            with session.begin_nested():
                session.add(
                    Feedback(
                        app_id=app_id,
                        post_id=post_id,
                        kind=kind,
                        fingerprint=fingerprint,
                        count=0,
                        create_time=now,
                        update_time=now,
                    )
                )
        except IntegrityError:
            pass
        row = session.execute(select(Feedback).where(*key).with_for_update()).scalar_one()
    if row.status == "RESOLVED":
        row.status, row.resolved_at, row.resolution, row.count = "ACTIVE", None, None, 0
    return row


def reporter_key(*, app_id: int, verified_user: int | None) -> str:
    """The vote a report casts: its verified user (proxy token), else its application."""
    return f"u{verified_user}" if verified_user is not None else f"a{app_id}"


def _check_daily_limit(
    session: Session, *, settings: ReportSettings, app_id: int, fingerprint: str, now: dt.datetime
) -> None:
    """Refuse a new report (fingerprint) beyond the application's daily number (429 / 200104)."""
    limit = settings.download_failure_reports_per_app_day
    mine = (Feedback.app_id == app_id, Feedback.kind == "DOWNLOAD_FAILURE")
    if not limit or session.scalar(select(Feedback.id).where(*mine, Feedback.fingerprint == fingerprint)):
        return
    since = now - dt.timedelta(days=1)
    recent = select(Feedback.create_time).where(*mine, Feedback.create_time > since)
    if session.execute(select(func.count()).select_from(recent.subquery())).scalar_one() < limit:
        return
    oldest = session.scalar(recent.order_by(Feedback.create_time).offset(max(0, limit - 1)).limit(1)) or now
    wait = int((oldest + dt.timedelta(days=1) - now).total_seconds()) + 1
    raise ApiError(
        "REPORT_LIMIT_EXCEEDED",
        f"at most {limit} new download-failure reports a day per application",
        headers={"Retry-After": str(min(86400, max(1, wait)))},
    )


def report_download_failure(
    session: Session,
    *,
    settings: ReportSettings,
    display: Display,
    post_id: int,
    app_id: int,
    reporter: str,
    body: DownloadFailureParam,
) -> bool:
    """Merge a download-failure report; True when it made the resource hidden."""
    get_listed_or_raise(session, post_id=post_id)
    _check_file(session, post_id, body.get("fileInfoId"))
    now = utcnow()
    _check_daily_limit(session, settings=settings, app_id=app_id, fingerprint=body["fingerprint"], now=now)
    row = _merge(
        session,
        app_id=app_id,
        post_id=post_id,
        kind="DOWNLOAD_FAILURE",
        fingerprint=body["fingerprint"],
        now=now,
    )
    row.count += body.get("count") or 1
    row.file_id = body.get("fileInfoId") or row.file_id
    row.error_type, row.http_status = body["errorType"], body.get("httpStatus")
    row.download_url, row.message = body.get("downloadUrl"), body.get("message")
    row.client_version, row.update_time = body.get("clientVersion"), now
    reporter = reporter[:128]
    known = session.scalar(
        select(FailureReporter.id).where(
            FailureReporter.post_id == post_id, FailureReporter.reporter == reporter
        )
    )
    if known is None:
        try:
            with session.begin_nested():
                session.add(FailureReporter(post_id=post_id, reporter=reporter, create_time=now))
        except IntegrityError:
            pass
    session.flush()
    threshold = settings.download_failure_hide_threshold
    reporters = session.execute(
        select(func.count(FailureReporter.id)).where(FailureReporter.post_id == post_id)
    ).scalar_one()
    if threshold and reporters >= threshold:
        lifecycle.hide_resource(session, post_id=post_id, display=display, now=now)
        return True
    return False


def report_user_feedback(session: Session, *, post_id: int, app_id: int, body: UserFeedbackParam) -> None:
    """Store a usefulness snapshot (one row per report)."""
    get_listed_or_raise(session, post_id=post_id)
    _check_file(session, post_id, body.get("fileInfoId"))
    now = utcnow()
    session.add(
        Feedback(
            app_id=app_id,
            post_id=post_id,
            kind="USER_FEEDBACK",
            fingerprint=f"uf-{uuid.uuid4().hex}",  # snapshots are never merged
            file_id=body.get("fileInfoId"),
            count=1,
            useful_count=body["usefulCount"],
            not_useful_count=body["notUsefulCount"],
            threshold=body.get("threshold"),
            message=body.get("comment"),
            client_version=body.get("clientVersion"),
            create_time=now,
            update_time=now,
        )
    )
    session.flush()


def parse_since(since: str, display: Display) -> dt.datetime:
    """The UTC instant of since, exactly yyyy-MM-ddTHH:mm:ss local to the platform time zone."""
    try:
        return parse_local_time(since, display.time_zone, iso=True)
    except ValueError as exc:
        raise ApiError(
            "PARAMETER_INVALID", "since must be yyyy-MM-ddTHH:mm:ss in the platform time zone"
        ) from exc


def resolved_since(
    session: Session, *, app_id: int, since: str, limit: int, display: Display
) -> list[ResolvedFeedback]:
    """UserFeedbackResolvedItemVO of the application's reports resolved at or after since."""
    start = parse_since(since, display)
    rows = session.scalars(
        select(Feedback)
        .where(Feedback.app_id == app_id, Feedback.status == "RESOLVED", Feedback.resolved_at >= start)
        .order_by(Feedback.resolved_at, Feedback.id)
        .limit(limit)
    )
    return [
        {
            "feedbackId": r.id,
            "postId": r.post_id,
            "feedbackType": r.kind,
            "fingerprint": r.fingerprint if r.kind == "DOWNLOAD_FAILURE" else None,
            "resolution": r.resolution,
            "resolvedAt": display.time(r.resolved_at),
        }
        for r in rows
    ]


def resolve(session: Session, *, post_id: int, resolution: str, now: dt.datetime | None = None) -> int:
    """Resolve every active report of a resource and forget its failure reporters."""
    now = now or utcnow()
    done = rowcount(
        session.execute(
            update(Feedback)
            .where(Feedback.post_id == post_id, Feedback.status == "ACTIVE")
            .values(status="RESOLVED", resolved_at=now, resolution=resolution[:1000])
        )
    )
    session.execute(delete(FailureReporter).where(FailureReporter.post_id == post_id))
    session.flush()
    return done


def restore(session: Session, *, post_id: int, display: Display, resolution: str) -> int:
    """Publish a resource hidden by reports again and resolve its reports (operator action)."""
    post = session.get(ResourcePost, post_id)
    if post is None or post.is_delete or post.status != lifecycle.HIDDEN:
        raise ApiError("CONFLICT", f"resource {post_id} is not hidden")
    lifecycle.publish_resource(session, post_id=post_id, display=display)
    return resolve(session, post_id=post_id, resolution=resolution)
