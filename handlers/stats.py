"""Section and resource statistics."""

from modhub.errors import not_implemented


def get_section_stats(**kwargs):
    """SectionStatsVO of one section (getGameStats, getSectionStats)."""
    raise not_implemented("getGameStats")


def get_resource_stats(**kwargs):
    """ResourceStatsDetailVO of one resource (getModStats, getResourceStats)."""
    raise not_implemented("getModStats")
