"""format_time's text is strftime's `yyyy-MM-dd HH:mm:ss` in the platform time zone, whatever path
gives it (modhub/core/display.py takes isoformat's from year 1000 on)."""

from __future__ import annotations

import datetime as dt
import random
from zoneinfo import ZoneInfo

import pytest

from modhub.core.display import TIME_FORMAT, format_time

ZONES = ["Asia/Shanghai", "UTC", "America/St_Johns", "Asia/Kathmandu", "Pacific/Chatham"]


def _instants() -> list[dt.datetime]:
    rng = random.Random(3)
    span = int(
        (dt.datetime(9999, 12, 30, tzinfo=dt.UTC) - dt.datetime(1, 1, 2, tzinfo=dt.UTC)).total_seconds()
    )
    picked = [
        dt.datetime(1, 1, 2, tzinfo=dt.UTC)
        + dt.timedelta(seconds=rng.randrange(span), microseconds=rng.randrange(10**6))
        for _ in range(300)
    ]
    return picked + [
        dt.datetime(999, 12, 31, 23, 59, 59, tzinfo=dt.UTC),
        dt.datetime(1000, 1, 1, 0, 0, 0, 999_999, tzinfo=dt.UTC),
        dt.datetime(2026, 3, 29, 1, 30, tzinfo=dt.UTC),
        dt.datetime(2026, 5, 1, 4, 0, 0, 500_000, tzinfo=dt.UTC),
    ]


@pytest.mark.parametrize("zone", ZONES)
def test_format_time_is_strftimes_text(zone):
    for value in _instants():
        assert format_time(value, zone) == value.astimezone(ZoneInfo(zone)).strftime(TIME_FORMAT), value


def test_format_time_of_nothing_is_nothing():
    assert format_time(None, "UTC") is None
