"""Consumer reports: download failures, usefulness votes, resolved feedback."""

from modhub.errors import not_implemented


def report_download_failure(**kwargs):
    """Nothing (void); records a download failure (reportModDownloadFailure and its 2 aliases)."""
    raise not_implemented("reportModDownloadFailure")


def report_user_feedback(**kwargs):
    """Nothing (void); records a usefulness snapshot (reportModUserFeedback and its 2 aliases)."""
    raise not_implemented("reportModUserFeedback")


def list_resolved_feedback(**kwargs):
    """List of UserFeedbackResolvedItemVO (listModUserFeedbackResolvedSince and its 2 aliases)."""
    raise not_implemented("listModUserFeedbackResolvedSince")
