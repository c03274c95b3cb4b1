"""Display rules shared by every record: times in the platform time zone, display URLs."""

from __future__ import annotations

import datetime as dt
from functools import lru_cache
from zoneinfo import ZoneInfo

TIME_FORMAT = "%Y-%m-%d %H:%M:%S"


@lru_cache(maxsize=16)
def _zone(name: str) -> ZoneInfo:
    return ZoneInfo(name)


def format_time(value: dt.datetime | None, zone: str) -> str | None:
    """A stored UTC time as `yyyy-MM-dd HH:mm:ss` in the platform time zone."""
    if value is None:
        return None
    return value.astimezone(_zone(zone)).strftime(TIME_FORMAT)


def display_url(raw: str | None, cdn_base: str) -> str | None:
    """An image or avatar reference as a display URL (absolute URLs pass through)."""
    if not raw:
        return raw
    if raw.startswith(("http://", "https://", "//")) or not cdn_base:
        return raw
    return f"{cdn_base}/{raw.lstrip('/')}"
