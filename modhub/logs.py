"""Log records: one format in every process (the CLI, each uvicorn worker, the RQ worker).

MODHUB_LOG_FORMAT=text (default): `time level logger [traceId] message`, one line, exceptions
as the usual traceback. MODHUB_LOG_FORMAT=json: one JSON object per line with time, level,
logger, traceId and message, an exception as one `exception` field. The access record of each
request (logger `modhub.access`) carries method, operation, status, durationMs, appId and
client as fields of its own. Nothing here logs headers or bodies: secrets never reach a record.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import logging
import logging.config
import os
import select
import time

TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s %(traceId)s%(message)s"
ACCESS_FIELDS = ("method", "path", "operation", "status", "durationMs", "appId", "client")


def _trace_id() -> str | None:
    from modhub import envelope

    state = envelope.current.get(None)
    return state.request_id if state is not None else None


class TraceFilter(logging.Filter):
    """Adds `traceId` (the request id of the request being served, if any) to every record."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not hasattr(record, "traceId"):
            record.traceId = _trace_id()
        return True


class TextFormatter(logging.Formatter):
    """The default one-line text format; the access record's fields as key=value."""

    def __init__(self, *args, **kwargs):
        super().__init__(TEXT_FORMAT)
        self._second: int | None = None  # access_line's last second, and its text
        self._second_text = ""

    def access_line(self, name: str, created: float, trace: str | None, message: str, fields: dict) -> str:
        """What format() makes of an INFO record of logger `name` with these attributes."""
        second = int(created)
        if second != self._second:
            self._second_text = time.strftime(self.default_time_format, self.converter(created))
            self._second = second
        msecs = int((created - second) * 1000)  # as LogRecord.msecs
        asctime = f"{self._second_text},{msecs:03d}"  # as Formatter.default_msec_format
        line = (
            f"{asctime} {logging.getLevelName(logging.INFO)} {name} {f'[{trace}] ' if trace else ''}{message}"
        )
        pairs = " ".join([f"{k}={v}" for k, v in fields.items() if v is not None])
        return f"{line} {pairs}" if pairs else line

    def format(self, record: logging.LogRecord) -> str:
        trace = getattr(record, "traceId", None)
        record.traceId = f"[{trace}] " if trace else ""
        try:
            line = super().format(record)
        finally:
            record.traceId = trace
        fields = [f"{k}={getattr(record, k)}" for k in ACCESS_FIELDS if getattr(record, k, None) is not None]
        return f"{line} {' '.join(fields)}" if fields else line


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, traceId, message (+ exception, fields)."""

    def __init__(self, *args, **kwargs):
        super().__init__()

    def access_line(self, name: str, created: float, trace: str | None, message: str, fields: dict) -> str:
        """What format() makes of an INFO record of logger `name` with these attributes."""
        out = self._head(created, logging.getLevelName(logging.INFO), name, trace, message)
        out.update([(k, v) for k, v in fields.items() if v is not None])
        return json.dumps(out, ensure_ascii=False, default=str)

    @staticmethod
    def _head(created: float, level: str, name: str, trace: str | None, message: str) -> dict:
        return {
            "time": dt.datetime.fromtimestamp(created, dt.UTC).isoformat(timespec="milliseconds"),
            "level": level,
            "logger": name,
            "traceId": trace,
            "message": message,
        }

    def format(self, record: logging.LogRecord) -> str:
        trace = getattr(record, "traceId", None)
        out = self._head(record.created, record.levelname, record.name, trace, record.getMessage())
        for key in ACCESS_FIELDS:
            value = getattr(record, key, None)
            if value is not None:
                out[key] = value
        if record.exc_info:
            out["exception"] = self.formatException(record.exc_info)
        elif record.exc_text:
            out["exception"] = record.exc_text
        if record.stack_info:
            out["stack"] = self.formatStack(record.stack_info)
        return json.dumps(out, ensure_ascii=False, default=str)


class LoopBatchedHandler(logging.StreamHandler):
    """A stream handler that, on a thread running an event loop (a served process's requests),
    writes the records of one turn of the loop together, at the start of the next turn; anywhere
    else (the CLI, the RQ worker, handler threads) a record is written at once, as
    logging.StreamHandler does. An access record per request then costs the process a share of
    one write instead of a write of its own. A record of WARNING or above is never held: it is
    written at once, after those waiting. Each write is whole lines of at most PIPE_BUF bytes, so
    the lines of processes sharing a pipe never mix within a line."""

    def __init__(self, stream=None):
        super().__init__(stream)
        self.pending: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no loop on this thread: at once
            super().emit(record)
            return
        try:
            line = self.format(record) + self.terminator
        except Exception:  # noqa: BLE001 - logging's own contract: report, never raise
            self.handleError(record)
            return
        if not self.pending and record.levelno < logging.WARNING:
            loop.call_soon(self.flush)
        self.pending.append(line)
        if record.levelno >= logging.WARNING:
            self._write_pending()

    def hold(self, line: str, loop: asyncio.AbstractEventLoop) -> None:
        """A formatted line below WARNING, held as emit() holds it on the loop's thread."""
        with self.lock:  # type: ignore[union-attr]
            if not self.pending:
                loop.call_soon(self.flush)
            self.pending.append(line + self.terminator)

    def flush(self) -> None:
        self.acquire()
        try:
            self._write_pending()
            super().flush()
        finally:
            self.release()

    def _write_pending(self) -> None:
        lines, self.pending = self.pending, []
        if not lines:
            return
        try:
            chunk: list[str] = []
            size = 0
            for line in lines:
                length = len(line) if line.isascii() else len(line.encode("utf-8", "backslashreplace"))
                if chunk and size + length > select.PIPE_BUF:
                    self.stream.write("".join(chunk))
                    chunk, size = [], 0
                chunk.append(line)
                size += length
            self.stream.write("".join(chunk))
            self.stream.flush()
        except Exception:  # noqa: BLE001 - as StreamHandler.emit: report on stderr, never raise
            self.handleError(
                logging.makeLogRecord({"msg": "%d log records not written", "args": (len(lines),)})
            )


def log_directly(logger: logging.Logger, trace: str | None, message: str, fields: dict) -> bool:
    """Hand an INFO line of `logger` (its traceId, message and fields) straight to the one handler
    its records reach, formatted as logging would have formatted the record, when that handler is a
    LoopBatchedHandler set up as dict_config sets it (its own formatter, the trace filter alone, which
    leaves a record with a traceId as it is), the logger filters nothing, and a loop runs on this
    thread: the access record of each request, without building a LogRecord and walking it through
    logging (a tenth of a kept detail's instructions). False, with nothing logged, in any other
    set-up (a handler or filter of a test's or an operator's): the caller logs a record then."""
    if logger.filters or logger.disabled or not logger.isEnabledFor(logging.INFO):
        return False
    handler = None
    node: logging.Logger | None = logger
    while node is not None:
        for found in node.handlers:
            if handler is not None:
                return False
            handler = found
        node = node.parent if node.propagate else None
    if type(handler) is not LoopBatchedHandler or handler.level > logging.INFO:
        return False
    formatter = handler.formatter
    if type(formatter) not in (TextFormatter, JsonFormatter) or len(handler.filters) != 1:
        return False
    if type(handler.filters[0]) is not TraceFilter:
        return False
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        return False
    try:
        line = formatter.access_line(logger.name, time.time(), trace, message, fields)  # type: ignore[union-attr]
    except Exception:  # noqa: BLE001 - as logging: the caller's record path reports it
        return False
    handler.hold(line, loop)
    return True


def dict_config(log_format: str = "text", level: str = "INFO") -> dict:
    """A logging.config.dictConfig for every logger of the process, uvicorn's included (passed
    to uvicorn as log_config, so each worker process applies it too)."""
    formatter = "modhub.logs.JsonFormatter" if log_format == "json" else "modhub.logs.TextFormatter"
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {"trace": {"()": "modhub.logs.TraceFilter"}},
        "formatters": {"modhub": {"()": formatter}},
        "handlers": {
            "stderr": {
                "class": "modhub.logs.LoopBatchedHandler",
                "formatter": "modhub",
                "filters": ["trace"],
                "stream": "ext://sys.stderr",
            }
        },
        "root": {"handlers": ["stderr"], "level": level},
        "loggers": {
            # uvicorn's own handlers are replaced by the root one: the same format everywhere
            "uvicorn": {"handlers": [], "propagate": True, "level": level},
            "uvicorn.error": {"handlers": [], "propagate": True},
            "uvicorn.access": {"handlers": [], "propagate": False, "level": "WARNING"},
            "alembic.runtime.plugins": {"level": "WARNING"},
            "alembic.runtime.migration": {"level": "WARNING"},  # two lines per /readyz otherwise
            "rq.worker": {"propagate": True},
        },
    }


def configure(log_format: str | None = None, level: str | None = None) -> None:
    """Apply the format and level named (or MODHUB_LOG_FORMAT / MODHUB_LOG_LEVEL) to this process.

    A root logger that already has a handler of someone else's (a test runner's, a program
    embedding modhub) is left alone, as logging.basicConfig would.
    """
    log_format = (log_format or os.environ.get("MODHUB_LOG_FORMAT", "") or "text").strip().lower()
    level = (level or os.environ.get("MODHUB_LOG_LEVEL", "") or "INFO").strip().upper()
    if log_format not in ("text", "json"):  # the settings check reports it; log meanwhile
        log_format = "text"
    if level not in ("DEBUG", "INFO", "WARNING", "ERROR"):
        level = "INFO"
    root = logging.getLogger()
    ours = [h for h in root.handlers if isinstance(h.formatter, (TextFormatter, JsonFormatter))]
    if len(ours) != len(root.handlers):
        return
    for handler in ours:
        root.removeHandler(handler)
    logging.config.dictConfig(dict_config(log_format, level))
