"""Counting a search's matches beside the reading of its page.

At a million resources the count of a broad search (up to TOTAL_CAP + 1 matches: a bitmap of the
index and ten thousand heap rows) costs more than reading its page. On PostgreSQL it runs on a
connection of its own, in a thread of this process, while the request reads the page: the request
then waits for the longer of the two, not their sum. Both are read-only statements of their own
snapshot (READ COMMITTED), as they were when they ran one after the other.

The counting connections come from a pool of their own with as many connections as counting
threads, so a count never waits for a connection that a request waiting for it holds. A count
runs with enable_seqscan off: it stops at TOTAL_CAP + 1 rows (a LIMIT), and with a match
overestimated (pg_trgm's estimate of a substring pattern can be twice the truth) PostgreSQL would
scan the table in the hope of meeting them early: 224 ms for a keyword at a million resources,
where the bitmap of its indexes takes 23 ms. The counting connections are in autocommit and each
count is sent after `SET LOCAL enable_seqscan = off` in the same query string: one implicit
transaction, one round trip (BEGIN, SET LOCAL, the count and ROLLBACK were four), and nothing
left on the connection for a pooler to hand on (PgBouncer's transaction mode). The same prefix
carries the statement time-out and the JIT setting of the app's own connections (read once), so
a count is bounded as every other statement is; the connections start with the app's
application_name, and prepare the keyword's count as the app's prepare their reads. A session
bound to one connection (the tests' rolled-back transaction) or to SQLite counts in line, after
the page: another connection would not see its uncommitted rows.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Protocol, TypedDict
from weakref import WeakKeyDictionary

from sqlalchemy import Integer, Select, bindparam, create_engine, event, func, literal_column, select
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from modhub.core.statements import PREPARE_OPTION, Prepared

THREADS = 4  # counts running at once per process; more wait in the executor's queue
THREAD_PREFIX = "search-count"  # the counting threads' names
NO_SEQSCAN = "SET LOCAL enable_seqscan = off; "  # before each count, in its own query string
SETTINGS = (
    "SELECT current_setting('statement_timeout'), current_setting('jit'), current_setting('application_name')"
)


class _State(TypedDict, total=False):
    """This process's counting machinery (empty until the first count)."""

    pid: int  # the process that made it (a forked worker makes its own)
    executor: ThreadPoolExecutor
    engines: WeakKeyDictionary[Engine, Engine]  # engine -> its counting engine


_lock = threading.Lock()
_state: _State = {}


def capped_count(stmt: Select[*tuple[Any, ...]], cap: int | None) -> Select[int]:
    """The statement counting stmt's rows, at most cap + 1 of them (cap + 1 means: more than cap);
    cap None: at most the bind parameter count_rows (cap + 1) of them (a prepared statement's)."""
    rows = cap + 1 if cap is not None else bindparam("count_rows", type_=Integer)
    return select(func.count()).select_from(
        stmt.with_only_columns(literal_column("1")).order_by(None).limit(rows).subquery()
    )


class Count(Protocol):
    """The count of count_beside: a count already known, else the one counted."""

    def __call__(self, known: int | None = None) -> int: ...


def count_beside(
    session: Session,
    stmt: Select[int] | Prepared,
    params: Mapping[str, Any] | None = None,
    *,
    beside: bool = True,
) -> Count:
    """Start counting (stmt: a SELECT of one integer, or its Prepared, with params) and return the
    function that gives the count: given a count already known (a window that held every
    document), it returns that one. With beside=False (a count seldom needed) nothing starts: the
    count is read in line, on the session, if and when it is asked for."""
    bind = session.get_bind()
    if not beside or not isinstance(bind, Engine) or bind.dialect.name != "postgresql":

        def count_here(known: int | None = None) -> int:
            if known is not None:
                return known
            if isinstance(stmt, Prepared):
                return int(stmt.rows(session, params or {})[0][0])
            return session.execute(stmt, params).scalar_one()

        return count_here
    executor, engine = _counting(bind)
    future = executor.submit(_scalar, engine, stmt, params)

    def count_beside_result(known: int | None = None) -> int:
        return known if known is not None else future.result()

    return count_beside_result


def _scalar(engine: Engine, stmt: Select[int] | Prepared, params: Mapping[str, Any] | None = None) -> int:
    with engine.connect() as connection:
        if isinstance(stmt, Prepared):
            return int(stmt.rows_on(connection, params or {})[0][0])
        return connection.execute(stmt, params).scalar_one()


def _prefixed(prefix: str) -> Any:
    """A before_cursor_execute listener sending each statement after prefix, in its query string."""

    def before(
        conn: Any, cursor: Any, statement: str, parameters: Any, context: Any, executemany: bool
    ) -> tuple[str, Any]:
        return prefix + statement, parameters

    return before


def _counting(engine: Engine) -> tuple[ThreadPoolExecutor, Engine]:
    """This process's executor and the counting engine of engine (made at first use, and again in
    a forked worker: threads and connections do not cross a fork)."""
    with _lock:
        if _state.get("pid") != os.getpid():
            _state.update(
                _State(
                    pid=os.getpid(),
                    engines=WeakKeyDictionary(),
                    executor=ThreadPoolExecutor(THREADS, thread_name_prefix=THREAD_PREFIX),
                )
            )
        counting = _state["engines"].get(engine)
        if counting is None:
            # Once: the settings the app's own connections start with (modhub.db.connect_args: the
            # statement time-out, no JIT), which a count holds too, set for its own transaction
            # (per transaction, not per connection: a pooler hands the server connection on)
            with engine.connect() as connection:
                timeout, jit, name = connection.exec_driver_sql(SETTINGS).one()
            counting = create_engine(
                engine.url,
                pool_size=THREADS,
                max_overflow=0,
                pool_recycle=1800,
                isolation_level="AUTOCOMMIT",
                connect_args={"application_name": name},  # the app's, in pg_stat_activity
                # prepared statements as on the app's connections (off behind a pooler)
                execution_options={PREPARE_OPTION: engine.get_execution_options().get(PREPARE_OPTION, True)},
            )
            prefix = f"{NO_SEQSCAN}SET LOCAL statement_timeout = '{timeout}'; SET LOCAL jit = {jit}; "
            event.listen(counting, "before_cursor_execute", _prefixed(prefix), retval=True)
            _state["engines"][engine] = counting
        return _state["executor"], counting


def counted(value: int) -> Count:
    """The Count of a count already known (a kept total): nothing is counted."""

    def count_known(known: int | None = None) -> int:
        return value

    return count_known
