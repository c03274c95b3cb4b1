"""Files, downloads, install configuration and information, startup commands."""

from models import file_views
from modhub.web import ok_tagged, platform, session


def list_files(post_id: int, **_):
    """List of FileSummaryVO of a resource (listModFiles, listResourceFiles)."""
    return ok_tagged(file_views.list_files(session(), post_id=post_id,
                                           zone=platform().settings.time_zone))


def get_batch(body: dict, **_):
    """List of FileSummaryVO (or null) in request order (batchGetFiles, getFileBatch)."""
    return ok_tagged(file_views.get_batch(session(), file_ids=body["fileInfoIds"],
                                          zone=platform().settings.time_zone))
