"""Bulk writing for `modhub demo seed`: ids reserved up front, rows sent by COPY on PostgreSQL.

Reserving ids before writing lets the seed build every row with its final keys and counters, so
nothing is written twice (no RETURNING round trip per chunk, no counter UPDATE afterwards). On
PostgreSQL the rows go through `COPY ... FROM STDIN` (text format) from an in-memory buffer; on
SQLite they go through one executemany INSERT. Both run in the caller's transaction.

`deferred_indexes` drops the GIN (tsvector, trigram, jsonb) indexes of the tables the seed fills
and builds them again at its end, in the same transaction: building such an index once over the
whole table is several times cheaper than maintaining it row by row.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import io
from collections.abc import Callable, Iterator
from decimal import Decimal

from sqlalchemy import Table, insert, select, text
from sqlalchemy.orm import Session
from sqlalchemy.sql.schema import CallableColumnDefault, ScalarElementColumnDefault

_ESCAPES = str.maketrans({"\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r"})


def _copy_text(value) -> str:
    """One value in PostgreSQL's COPY text format (after the column type's bind processing)."""
    if value is None:
        return "\\N"
    if value is True:
        return "t"
    if value is False:
        return "f"
    if isinstance(value, str):
        return value.translate(_ESCAPES)
    if isinstance(value, int | float | Decimal):
        return str(value)
    if isinstance(value, dt.datetime | dt.date):
        return value.isoformat()
    raise TypeError(f"no COPY text for {type(value).__name__}")


class BulkWriter:
    """Writes lists of row dicts into tables of one session, reserving ids on request."""

    def __init__(self, session: Session):
        self.session = session
        self.dialect = session.get_bind().dialect
        self.postgres = self.dialect.name == "postgresql"
        self._next_id: dict[str, int] = {}  # SQLite: the next free id per table
        self._plans: dict[tuple[str, tuple[str, ...]], tuple] = {}

    def reserve(self, model, count: int) -> list[int]:
        """`count` new primary keys of the model's table (from its sequence on PostgreSQL)."""
        if count <= 0:
            return []
        table: Table = model.__table__
        if self.postgres:
            return list(
                self.session.scalars(
                    text("SELECT nextval(pg_get_serial_sequence(:t, 'id')) FROM generate_series(1, :n)"),
                    {"t": table.name, "n": count},
                )
            )
        # SQLite: the seed's transaction holds the write lock (it has written the sections), so
        # max(id) + 1 onwards is free; the explicit ids advance AUTOINCREMENT's counter too.
        start = self._next_id.get(table.name)
        if start is None:
            start = (self.session.scalar(select(table.c.id).order_by(table.c.id.desc()).limit(1)) or 0) + 1
        self._next_id[table.name] = start + count
        return list(range(start, start + count))

    def with_ids(self, model, rows: list[dict]) -> list[int]:
        """Reserve a primary key for each row and put it in; answers the ids in row order."""
        ids = self.reserve(model, len(rows))
        for row, rid in zip(rows, ids, strict=True):
            row["id"] = rid
        return ids

    def write(self, model, rows: list[dict]) -> int:
        """Insert the rows (every row with the same keys); answers how many."""
        if not rows:
            return 0
        table: Table = model.__table__
        if not self.postgres:
            self.session.execute(insert(table), rows)
            if "id" not in rows[0]:
                self._next_id.pop(table.name, None)  # the database numbered them: ask again
            return len(rows)
        keys = tuple(rows[0])
        plan = self._plans.get((table.name, keys))
        if plan is None:
            plan = self._plans[(table.name, keys)] = self._plan(table, keys)
        sql, given, defaults = plan
        buf = io.StringIO()
        out = buf.write
        for row in rows:
            out("\t".join([conv(row[k]) for k, conv in given] + defaults))
            out("\n")
        buf.seek(0)
        dbapi = self.session.connection().connection.dbapi_connection
        if dbapi is None:  # a pooled connection is open while its Session's transaction is
            raise RuntimeError("the session's database connection is closed")
        cursor = dbapi.cursor()
        try:
            cursor.copy_expert(sql, buf, size=1 << 18)
        finally:
            cursor.close()
        return len(rows)

    def _plan(self, table: Table, keys: tuple[str, ...]):
        """The COPY statement, a converter per given column, and the Python defaults of the rest."""
        given: list[tuple[str, Callable]] = []
        defaults: list[str] = []
        names: list[str] = []
        for key in keys:
            col = table.c[key]
            given.append((key, self._converter(col)))
            names.append(col.name)
        for col in table.c:
            if col.key in keys or col.default is None or col.computed is not None:
                continue
            default = col.default
            if isinstance(default, ScalarElementColumnDefault):
                value = default.arg
            elif isinstance(default, CallableColumnDefault):
                value = default.arg(None)  # type: ignore[arg-type]  # wraps a no-argument callable: ignores the context
            else:
                continue  # a sequence or SQL default: the server applies it
            defaults.append(self._converter(col)(value))
            names.append(col.name)
        cols = ", ".join(f'"{n}"' for n in names)
        return f'COPY "{table.name}" ({cols}) FROM STDIN', given, defaults

    def _converter(self, col) -> Callable:
        process = col.type.bind_processor(self.dialect)
        if process is None:
            return _copy_text
        return lambda value: _copy_text(process(value))


@contextlib.contextmanager
def deferred_indexes(session: Session, tables: list[str]) -> Iterator[None]:
    """PostgreSQL: drop the tables' GIN indexes now, create them again (same definitions) at the end.

    Only for tables the caller fills from empty in this transaction: the DROP holds an exclusive
    lock on each table until the transaction ends. A failure rolls the drops back with the rows.
    """
    if session.get_bind().dialect.name != "postgresql":
        yield
        return
    defs = session.execute(
        text(
            "SELECT i.indexrelid::regclass::text, pg_get_indexdef(i.indexrelid) FROM pg_index i "
            "JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am am ON am.oid = c.relam "
            "WHERE i.indrelid::regclass::text = ANY(:tables) AND am.amname = 'gin' "
            "AND NOT i.indisunique"
        ),
        {"tables": tables},
    ).all()
    for name, _ in defs:
        session.execute(text(f'DROP INDEX "{name}"'))
    yield
    session.execute(text("SET LOCAL maintenance_work_mem = '512MB'"))
    for _, definition in defs:
        session.execute(text(str(definition)))
