"""Consumer reports: download failures, usefulness votes, resolved feedback."""

from models.downloads import downloads, reports
from models.downloads.vos import DownloadFailureParam, UserFeedbackParam
from modhub.web import caller_app_id, ok, platform, request_headers, session


def _reporter() -> str:
    """The report's vote: the user of a valid proxy token, else the application (a user id it
    merely names is checked, but votes as the application)."""
    app_id, headers = caller_app_id(), request_headers()
    user = downloads.request_user(session(), app_id=app_id, headers=headers, clock=platform().clock)
    verified = user if headers.get("X-Proxy-Access-Token") else None
    return reports.reporter_key(app_id=app_id, verified_user=verified)


def report_download_failure(post_id: int, body: DownloadFailureParam, **_):
    """Merge a download-failure report (report*DownloadFailure)."""
    reports.report_download_failure(
        session(),
        settings=platform().settings,
        display=platform().display,
        post_id=post_id,
        app_id=caller_app_id(),
        reporter=_reporter(),
        body=body,
    )
    return ok(None)


def report_user_feedback(post_id: int, body: UserFeedbackParam, **_):
    """Store a usefulness snapshot (report*UserFeedback)."""
    reports.report_user_feedback(session(), post_id=post_id, app_id=caller_app_id(), body=body)
    return ok(None)


def list_resolved_feedback(since: str, limit: int = 100, **_):
    """UserFeedbackResolvedItemVO list of the application (list*UserFeedbackResolvedSince)."""
    return ok(
        reports.resolved_since(
            session(), app_id=caller_app_id(), since=since, limit=limit, display=platform().display
        )
    )
