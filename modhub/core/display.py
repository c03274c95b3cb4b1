"""Display rules shared by every record: times in the platform time zone, display URLs, and the one
`Display` (time zone, CDN base, site URL) built once per platform and passed to the reads."""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Protocol, overload
from zoneinfo import ZoneInfo

TIME_FORMAT = "%Y-%m-%d %H:%M:%S"
_SHOWN = "%04d-%02d-%02d %02d:%02d:%02d"  # TIME_FORMAT's text, the year always four digits
_LOCAL = {
    False: re.compile(r"\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}"),
    True: re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}"),
}


class DisplaySettings(Protocol):
    """The settings a Display is built from (modhub.settings.Settings has them)."""

    @property
    def time_zone(self) -> str: ...
    @property
    def cdn_base_url(self) -> str: ...
    @property
    def site_url(self) -> str: ...


@lru_cache(maxsize=16)
def _zone(name: str) -> ZoneInfo:
    return ZoneInfo(name)


@overload
def format_time(value: dt.datetime, zone: str) -> str: ...
@overload
def format_time(value: None, zone: str) -> None: ...
@overload
def format_time(value: dt.datetime | None, zone: str) -> str | None: ...


def format_time(value: dt.datetime | None, zone: str) -> str | None:
    """A stored UTC time as `yyyy-MM-dd HH:mm:ss` in the platform time zone."""
    if value is None:
        return None
    t = value.astimezone(_zone(zone))
    # Every record shows two times: formatted from the fields (strftime does not pad a year before
    # 1000 to four digits on Linux; isoformat of an aware time formats its UTC offset too).
    return _SHOWN % (t.year, t.month, t.day, t.hour, t.minute, t.second)


def parse_local_time(text: str, zone: str, *, iso: bool = False) -> dt.datetime:
    """The UTC instant of a time sent in its one form, local to the platform time zone:
    `yyyy-MM-dd HH:mm:ss` (`yyyy-MM-ddTHH:mm:ss` when iso); ValueError for anything else."""
    if not isinstance(text, str) or not _LOCAL[iso].fullmatch(text):
        raise ValueError("yyyy-MM-ddTHH:mm:ss" if iso else "yyyy-MM-dd HH:mm:ss")
    local = dt.datetime.strptime(text, "%Y-%m-%dT%H:%M:%S" if iso else TIME_FORMAT)
    try:
        return local.replace(tzinfo=_zone(zone)).astimezone(dt.UTC)
    except OverflowError as exc:  # 0001-01-01 00:00:00 east of UTC, for one
        raise ValueError("out of range") from exc


def display_url(raw: str | None, cdn_base: str) -> str | None:
    """An image or avatar reference as a display URL (absolute URLs pass through)."""
    if not raw:
        return raw
    if raw.startswith(("http://", "https://", "//")) or not cdn_base:
        return raw
    return f"{cdn_base}/{raw.lstrip('/')}"


@dataclass(frozen=True)
class Display:
    """How records show times and URLs: the platform time zone, the CDN base of stored images and
    the public site URL. Built once from the settings (Platform.wire) and passed to every read as
    one typed argument, `display: Display` (no bare time-zone string, no settings object for
    presentation): the reads and the domain changes whose events carry records alike (the
    catalogue lifecycle's webhook snapshots).
    """

    time_zone: str
    cdn_base_url: str = ""
    site_url: str = ""

    @classmethod
    def from_settings(cls, settings: DisplaySettings) -> Display:
        """The display fields of the settings."""
        return cls(
            time_zone=settings.time_zone, cdn_base_url=settings.cdn_base_url, site_url=settings.site_url
        )

    def time(self, value: dt.datetime | None) -> str | None:
        """A stored UTC time in the platform time zone (format_time)."""
        return format_time(value, self.time_zone)

    def url(self, raw: str | None) -> str | None:
        """An image or avatar reference as a display URL (display_url)."""
        return display_url(raw, self.cdn_base_url)
