"""format_time's text is the contract's `yyyy-MM-dd HH:mm:ss` in the platform time zone (its
pattern `^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}$`): strftime's, with the year always four digits
(strftime does not pad a year before 1000 on Linux), and read back by parse_local_time."""

from __future__ import annotations

import datetime as dt
import random
import re
from zoneinfo import ZoneInfo

import pytest

from modhub.core.display import TIME_FORMAT, format_time, parse_local_time

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
def test_format_time_is_the_contracts_text(zone):
    for value in _instants():
        local = value.astimezone(ZoneInfo(zone))
        text = format_time(value, zone)
        assert text == f"{local.year:04d}" + local.strftime(TIME_FORMAT.removeprefix("%Y")), value
        assert re.fullmatch(r"\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}", text), text
        assert parse_local_time(text, zone) == value.replace(microsecond=0), value


def test_a_year_before_1000_has_four_digits():
    assert format_time(dt.datetime(999, 12, 31, 23, 59, 59, tzinfo=dt.UTC), "UTC") == "0999-12-31 23:59:59"
    assert format_time(dt.datetime(1, 1, 2, tzinfo=dt.UTC), "UTC") == "0001-01-02 00:00:00"


def test_format_time_of_nothing_is_nothing():
    assert format_time(None, "UTC") is None
