"""PostgreSQL SELECTs prepared once per connection and executed by name (modhub.core.statements.Prepared).

psycopg2 sends every statement as text, which PostgreSQL parses and plans anew. For the
catalogue's hot reads the plan costs more than the run: a cold detail (the post, its authors,
links and window statistics in one statement) plans in about 0.8 ms and runs in 0.25 ms. A
`Prepared` statement is compiled from its SQLAlchemy Select once per process (under a lock, one
text per name: equal Selects made apart may number their parameters differently), PREPAREd on a
connection the first time that connection runs it (in the same round trip as its first EXECUTE)
and executed by name afterwards. Outside a transaction (the read sessions) each EXECUTE comes
after `SET LOCAL plan_cache_mode = force_generic_plan` in the same query string, one implicit
transaction: PostgreSQL plans the statement once, generically, where its automatic mode kept a
feed page (a LIMIT parameter) on custom plans, and nothing else on the connection is affected
(the plans of triggers and foreign-key checks stay PostgreSQL's own choice). Parameters are
scalars (`= :post_id`) or arrays (`= ANY(:post_ids)`), never an expanding IN, whose text changes
with the list's length. A statement whose best plan depends on its values (a keyword search's
tiers: how many rows a word matches) is prepared with `plan="custom"`: its EXECUTE comes after
`SET LOCAL plan_cache_mode = force_custom_plan` instead, and PostgreSQL plans each run for its
values, as for a statement sent as text; the parsing and SQLAlchemy's compiling are still saved.
The constants of the Select are inlined, so a plan still sees them (a partial index's predicate).

Rows come back as tuples with the result processors of the selected columns' types applied
(SQLAlchemy's own, as `Session.execute` would). Listeners of the engine's before_cursor_execute
see each statement sent (`EXECUTE name(...)`, with its PREPARE on a connection's first use); a
DBAPI error is raised as SQLAlchemy's DBAPIError, the connection invalidated when it is a
disconnect, as for any statement. A statement dropped behind the pool's back (DEALLOCATE, DISCARD
ALL), one whose table changed under it (a migration: "cached plan must not change result type")
or one the connection holds that the process lost track of is prepared afresh at once outside a
transaction, in the same request. Where the database is not PostgreSQL, or MODHUB_DB_PREPARED_STATEMENTS
is off (PgBouncer in transaction mode), the Select runs through the session as usual.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal, cast

from sqlalchemy import BindParameter, exc, literal_column
from sqlalchemy.engine import Connection, Dialect
from sqlalchemy.orm import Session
from sqlalchemy.sql import CompoundSelect, Select, visitors
from sqlalchemy.types import TypeEngine

PREPARED = "modhub.prepared"  # connection info key: the names prepared on that connection
PREPARE_OPTION = "modhub_prepare"  # engine execution option: False runs each Select unprepared
REGISTRY: dict[str, Prepared] = {}  # by name: one statement per name in a process
_BUILDING = threading.Lock()  # held while a statement's text is built (once per name)
GENERIC = "SET LOCAL plan_cache_mode = force_generic_plan; "  # before an EXECUTE in autocommit
CUSTOM = "SET LOCAL plan_cache_mode = force_custom_plan; "  # the same, for plan="custom"
PLANS = {"generic": GENERIC, "custom": CUSTOM}
Plan = Literal["generic", "custom"]
Statement = Select[Any] | CompoundSelect[Any]  # a SELECT, or a UNION of them
# SQLSTATE of a failed EXECUTE -> the _Built text that sends it again: missing, stale, present
_AGAIN = {"26000": "prepare_and_execute", "0A000": "replace_and_execute", "42P05": "replace_and_execute"}
_MARKER = re.compile(r"__modhub_(\d+)__")


class Prepared:
    """One SELECT, prepared on each PostgreSQL connection under `name` (unique per statement)."""

    name: str
    select: Statement

    def __init__(self, name: str, select: Statement, *, plan: Plan = "generic"):
        # Two threads may build the same statement at once (a lazily built one): the same Select
        # under the same name is the same statement; another Select under it would not be.
        kept = REGISTRY.setdefault(name, self)
        if kept is not self and not kept.select.compare(select):
            raise ValueError(f"a prepared statement is named {name} already")
        self.name, self.select, self.plan = name, select, PLANS[plan]
        self._built: _Built | None = None

    def prepare_sql(self, dialect: Dialect) -> str:
        """The PREPARE statement (for a client replaying the EXECUTEs, bench/catalog.py)."""
        return (self._built or self._build(dialect)).prepare

    def rows(self, session: Session, params: Mapping[str, Any]) -> Sequence[Sequence[Any]]:
        """The statement's rows for params (every bind parameter without a value in the Select)."""
        conn = session.connection()
        if not _prepares(conn):
            return session.execute(self.select, params).all()
        return self._rows(conn, params)

    def rows_on(self, conn: Connection, params: Mapping[str, Any]) -> Sequence[Sequence[Any]]:
        """The same on a connection of one's own (a search's count, on its counting thread)."""
        if not _prepares(conn):
            return conn.execute(self.select, params).all()
        return self._rows(conn, params)

    def _rows(self, conn: Connection, params: Mapping[str, Any]) -> Sequence[Sequence[Any]]:
        built = self._built or self._build(conn.dialect)
        done: set[str] = conn.connection.info.setdefault(PREPARED, set())
        args = built.arguments(params)
        generic = self.plan if getattr(conn.connection.dbapi_connection, "autocommit", False) else ""
        try:
            sent = built.execute if self.name in done else built.prepare_and_execute
            rows, description = _send(conn, generic + sent, args)
        except exc.DBAPIError as error:
            done.discard(self.name)
            # Prepared statements dropped behind the pool's back (DEALLOCATE, DISCARD ALL), one
            # whose table changed under it (a migration: "cached plan must not change result
            # type"), or one the connection holds that this process lost track of: outside a
            # transaction, prepared afresh at once; in one, the next use does it.
            again = _AGAIN.get(getattr(error.orig, "pgcode", None) or "")
            if again is None or not generic:
                raise
            rows, description = _send(conn, generic + getattr(built, again), args)
        done.add(self.name)
        return built.processed(rows, description)

    def _build(self, dialect: Dialect) -> _Built:
        # One text per name in a process, the registered statement's, whichever Prepared of that
        # name (threads building a lazily made one at once) asks first: the order of the $n that
        # equal Selects give is not always the same (SQLAlchemy memoizes parts of the elements
        # they share as it walks them), and a connection that prepared one order must never be
        # sent arguments in the other.
        with _BUILDING:
            owner = REGISTRY.setdefault(self.name, self)
            built = owner._built
            if built is None or built.dialect.name != dialect.name:
                built = owner._built = _Built(owner.name, owner.select, dialect)
            self._built = built
        return built


def prepared(name: str, build: Callable[[], Statement], *, plan: Plan = "generic") -> Prepared:
    """The statement prepared under name, its Select built by build() at the first use (statements
    made per combination of their parts: a keyword search's, models/search/tiers.py)."""
    kept = REGISTRY.get(name)
    return kept if kept is not None else Prepared(name, build(), plan=plan)


def _prepares(conn: Connection) -> bool:
    """Whether statements are prepared on this connection: PostgreSQL's, unless switched off."""
    return conn.dialect.name == "postgresql" and conn.get_execution_options().get(PREPARE_OPTION, True)


def _send(conn: Connection, sql: str, args: list[Any]) -> tuple[Any, Any]:
    """One round trip (an EXECUTE, after PREPARE or DEALLOCATE and PREPARE), its rows and their
    description. The engine's before_cursor_execute listeners see it and may rewrite it (a
    counting connection's prefix: models/search/counting.py), its after_cursor_execute ones see it
    as sent. A DBAPI error is raised as SQLAlchemy's DBAPIError, the connection invalidated on a
    disconnect."""
    dialect, fairy = conn.dialect, conn.connection
    cursor = None
    try:
        cursor = fairy.dbapi_connection.cursor()  # type: ignore[union-attr]  # closed: an Error too
        for listener in conn.dispatch.before_cursor_execute:
            sql, args = listener(conn, cursor, sql, args, None, False)
        cursor.execute(sql, args)
        for after in conn.dispatch.after_cursor_execute:
            after(conn, cursor, sql, args, None, False)
        return cursor.fetchall(), cursor.description
    except dialect.loaded_dbapi.Error as error:
        gone = dialect.is_disconnect(error, fairy.dbapi_connection, cursor)
        if gone:
            conn.invalidate(error)
        raise exc.DBAPIError.instance(
            sql, args, error, dialect.loaded_dbapi.Error, connection_invalidated=gone, dialect=dialect
        ) from error
    finally:
        if cursor is not None:
            cursor.close()


class _Built:
    """A Prepared's SQL for one dialect: PREPARE and EXECUTE texts, argument order, processors."""

    def __init__(self, name: str, select: Statement, dialect: Dialect):
        # The Select's constants inline (a plan must see them: a partial index's predicate, a
        # CASE's values), each bind parameter without a value as $n of its own type.
        order: list[str] = []
        kinds: dict[str, TypeEngine[Any]] = {}

        def positional(element: Any, **_kw: Any) -> Any:
            if not isinstance(element, BindParameter) or not element.required:
                return None
            if element.expanding:
                raise ValueError(f"{name}: an expanding IN has no generic plan; use = ANY(array)")
            if element.key not in kinds:
                order.append(element.key)
                kinds[element.key] = element.type
            return literal_column(f"__modhub_{order.index(element.key) + 1}__", element.type)

        swapped = cast(Statement, visitors.replacement_traverse(cast(Any, select), {}, positional))
        body = str(swapped.compile(dialect=dialect, compile_kwargs={"literal_binds": True}))
        body = _MARKER.sub(lambda m: f"${m.group(1)}", body)
        types = [dialect.type_compiler_instance.process(kinds[n]) for n in order]
        self.order = order
        self.bind_processors: dict[str, Callable[[Any], Any]] = {}
        for n in order:
            process = kinds[n]._cached_bind_processor(dialect)
            if process is not None:
                self.bind_processors[n] = process
        call = f"EXECUTE {name}({', '.join(['%s'] * len(order))})" if order else f"EXECUTE {name}"
        self.execute = call
        self.prepare = (
            f"PREPARE {name} ({', '.join(types)}) AS {body}" if types else f"PREPARE {name} AS {body}"
        )
        self.prepare_and_execute = f"{self.prepare}; {call}"
        self.replace_and_execute = f"DEALLOCATE {name}; {self.prepare}; {call}"
        self.dialect = dialect
        self.columns = [c.type for c in select.selected_columns]
        self.processors: list[tuple[int, Callable[[Any], Any]]] | None = None

    def arguments(self, params: Mapping[str, Any]) -> list[Any]:
        args = []
        for n in self.order:
            value = params[n]
            process = self.bind_processors.get(n)
            args.append(process(value) if process else value)
        return args

    def processed(self, rows: list[tuple[Any, ...]], description: Any) -> list[tuple[Any, ...]]:
        if self.processors is None:  # the DBAPI's type codes decide some (numeric: none needed)
            found: list[tuple[int, Callable[[Any], Any]]] = []
            for i, (kind, column) in enumerate(zip(self.columns, description, strict=True)):
                result_processor = kind._cached_result_processor(self.dialect, column.type_code)
                if result_processor is not None:
                    found.append((i, result_processor))
            self.processors = found
        if not self.processors or not rows:
            return rows
        out = []
        for row in rows:
            values = list(row)
            for i, process in self.processors:
                values[i] = process(values[i])
            out.append(tuple(values))
        return out
