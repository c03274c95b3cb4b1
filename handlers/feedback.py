"""Consumer reports: download failures, usefulness votes, resolved feedback."""

from models.downloads import downloads, reports
from modhub.addresses import client_address
from modhub.web import caller, ok, platform, remote_addr, request_headers, session


def _reporter() -> str:
    """A distinct reporter: the application and its (checked) proxy user, else its caller's
    address."""
    state, settings = caller(), platform().settings
    user = downloads.request_user(
        session(), app_id=state.app_id, headers=request_headers(), clock=platform().clock
    )
    if user is not None:
        return f"{state.app_id}:u{user}"
    address = client_address(
        remote_addr(),
        request_headers().get("X-Forwarded-For"),
        settings.trusted_networks,
    )
    return f"{state.app_id}:a{address}"


def report_download_failure(post_id: int, body: dict, **_):
    """Merge a download-failure report (report*DownloadFailure)."""
    reports.report_download_failure(
        session(),
        settings=platform().settings,
        post_id=post_id,
        app_id=caller().app_id,
        reporter=_reporter(),
        body=body,
    )
    return ok(None)


def report_user_feedback(post_id: int, body: dict, **_):
    """Store a usefulness snapshot (report*UserFeedback)."""
    reports.report_user_feedback(session(), post_id=post_id, app_id=caller().app_id, body=body)
    return ok(None)


def list_resolved_feedback(since: str, limit: int = 100, **_):
    """UserFeedbackResolvedItemVO list of the application (list*UserFeedbackResolvedSince)."""
    return ok(
        reports.resolved_since(
            session(), app_id=caller().app_id, since=since, limit=limit, zone=platform().settings.time_zone
        )
    )
