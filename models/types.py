"""Shared annotated column types, so every model spells ids, times and money the same way."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Annotated, Any, cast

from sqlalchemy import BigInteger, CursorResult, DateTime, Integer, Numeric, Result, String, TypeDecorator
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import mapped_column

TIMESTAMPTZ_OID = 1184  # PostgreSQL's type of `timestamp with time zone` (cursor.description's type code)


class UTCDateTime(TypeDecorator[dt.datetime]):
    """Timezone-aware UTC datetimes on PostgreSQL and SQLite alike (SQLite keeps no zone)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: dt.datetime | None, dialect: Dialect) -> dt.datetime | None:
        if value is not None and value.tzinfo is None:
            raise ValueError("naive datetime: store UTC-aware datetimes only")
        return value.astimezone(dt.UTC) if value is not None else None

    def process_result_value(self, value: dt.datetime | None, dialect: Dialect) -> dt.datetime | None:
        if value is not None and value.tzinfo is None:
            value = value.replace(tzinfo=dt.UTC)
        return value

    def result_processor(self, dialect: Dialect, coltype: Any) -> Any:
        """None for a PostgreSQL timestamptz (psycopg2 gives it zone-aware: process_result_value has
        nothing to do, and a page of records would call it twice a row for nothing)."""
        if dialect.name == "postgresql" and coltype == TIMESTAMPTZ_OID:
            return None
        return super().result_processor(dialect, coltype)


# 64-bit ids; SQLite only autoincrements INTEGER PRIMARY KEY, hence the variant.
BigId = BigInteger().with_variant(Integer(), "sqlite")

id_pk = Annotated[int, mapped_column(BigId, primary_key=True, autoincrement=True)]
big_id = Annotated[int, mapped_column(BigId)]
utc_time = Annotated[dt.datetime, mapped_column(UTCDateTime())]
str32 = Annotated[str, mapped_column(String(32))]
str64 = Annotated[str, mapped_column(String(64))]
str128 = Annotated[str, mapped_column(String(128))]
str255 = Annotated[str, mapped_column(String(255))]
money = Annotated[Decimal, mapped_column(Numeric(20, 4))]


def utcnow() -> dt.datetime:
    """The current UTC time, timezone-aware."""
    return dt.datetime.now(dt.UTC)


def rowcount(result: Result[*tuple[Any, ...]]) -> int:
    """The rows an UPDATE or DELETE matched. Session.execute is typed to return a Result; the
    result of a DML statement is a CursorResult, which counts them."""
    return cast("CursorResult[*tuple[Any, ...]]", result).rowcount
