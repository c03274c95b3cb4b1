"""Section and resource statistics."""

from models.catalog import stats
from modhub.web import ok_tagged, session


def get_section_stats(section_code: str, **_):
    """SectionStatsVO of one section (getGameStats, getSectionStats)."""
    return ok_tagged(stats.section_stats(session(), section_code=section_code))


def get_resource_stats(post_id: int, **_):
    """ResourceStatsDetailVO of one resource (getModStats, getResourceStats)."""
    return ok_tagged(stats.resource_stats(session(), post_id=post_id))
