"""modhub.logs: a JSON record is one line with the exception as one field; the text format
carries time, level, logger and the request's traceId."""

import json
import logging

from modhub import envelope
from modhub.logs import JsonFormatter, TextFormatter, TraceFilter


def _record(exc_info=None, **extra) -> logging.LogRecord:
    record = logging.LogRecord("modhub.test", logging.ERROR, __file__, 1, "boom %s", ("x",), exc_info)
    for k, v in extra.items():
        setattr(record, k, v)
    TraceFilter().filter(record)
    return record


def test_json_record_is_one_line_with_the_exception_as_one_field():
    try:
        raise ValueError("bad\nvalue")
    except ValueError:
        import sys

        info = sys.exc_info()
    token = envelope.current.set(envelope.RequestState("a" * 32))
    try:
        line = JsonFormatter().format(_record(info))
    finally:
        envelope.current.reset(token)
    assert "\n" not in line
    out = json.loads(line)
    assert out["level"] == "ERROR" and out["logger"] == "modhub.test" and out["message"] == "boom x"
    assert out["traceId"] == "a" * 32 and out["time"].endswith("+00:00")
    assert out["exception"].startswith("Traceback") and "ValueError: bad" in out["exception"]


def test_access_fields_are_fields():
    rec = _record(method="GET", operation="listFeaturedMods", status=200, durationMs=1.5, appId=7)
    out = json.loads(JsonFormatter().format(rec))
    assert out["operation"] == "listFeaturedMods" and out["appId"] == 7 and out["durationMs"] == 1.5
    text = TextFormatter().format(_record(status=503, operation="x"))
    assert " ERROR modhub.test boom x " in text and text.endswith("operation=x status=503")


class _Stream:
    def __init__(self):
        self.writes: list[str] = []

    def write(self, text: str) -> None:
        self.writes.append(text)

    def flush(self) -> None:
        pass


def _batched():
    from modhub.logs import LoopBatchedHandler

    stream = _Stream()
    handler = LoopBatchedHandler(stream)
    handler.setFormatter(logging.Formatter("%(levelname)s %(message)s"))
    log = logging.getLogger("modhub.test.batched")
    log.propagate, log.handlers, log.level = False, [handler], logging.INFO
    return log, stream


def test_records_of_one_loop_turn_are_written_together_at_the_next():
    import asyncio

    log, stream = _batched()

    async def main():
        log.info("a")
        log.info("b")
        assert stream.writes == []  # held until the loop's next turn
        await asyncio.sleep(0)
        assert stream.writes == ["INFO a\nINFO b\n"]
        log.info("c")
        log.warning("w")  # never held: written at once, after what waits
        assert stream.writes[1:] == ["INFO c\nWARNING w\n"]
        log.info("d")

    asyncio.run(main())
    assert stream.writes[-1] == "INFO d\n"  # the loop's last turn writes it


def test_without_a_loop_each_record_is_written_at_once():
    log, stream = _batched()
    log.info("x")
    assert stream.writes == ["INFO x\n"]


def test_a_write_is_whole_lines_within_pipe_buf():
    import asyncio
    import select

    log, stream = _batched()

    async def main():
        for i in range(100):
            log.info("é%03d %s", i, "x" * 100)
        await asyncio.sleep(0)

    asyncio.run(main())
    assert len(stream.writes) > 1
    assert all(len(w.encode()) <= select.PIPE_BUF and w.endswith("\n") for w in stream.writes)
    lines = "".join(stream.writes).splitlines()
    assert lines == [f"INFO é{i:03d} {'x' * 100}" for i in range(100)]


def _served(formatter: logging.Formatter, name: str):
    """A logger set up as modhub.logs.dict_config sets a served process's: one LoopBatchedHandler
    (the formatter given, the trace filter) on the root of a tree of its own."""
    from modhub.logs import LoopBatchedHandler

    stream = _Stream()
    handler = LoopBatchedHandler(stream)
    handler.setFormatter(formatter)
    handler.addFilter(TraceFilter())
    root = logging.RootLogger(logging.INFO)
    root.addHandler(handler)
    manager = logging.Manager(root)
    log = manager.getLogger(name)
    return log, stream, root


FIELDS = {
    "method": "GET",
    "path": "/openapi/v2/mods/7",
    "operation": "getMod",
    "status": 200,
    "durationMs": 1.25,
    "appId": None,
    "client": "127.0.0.1",
}


def _both_ways(formatter: logging.Formatter, trace: str | None, monkeypatch) -> tuple[str, str]:
    """The access line handed straight to the handler, and the same as a record through logging."""
    import asyncio

    from modhub.logs import log_directly

    monkeypatch.setattr("time.time", lambda: 1764259200.0456)  # also LogRecord's clock
    log, stream, _ = _served(formatter, "modhub.access")

    async def main():
        assert log_directly(log, trace, "GET /openapi/v2/mods/7 200", FIELDS)
        record = logging.LogRecord(
            log.name, logging.INFO, __file__, 0, "%s %s %s", ("GET", FIELDS["path"], 200), None
        )
        record.__dict__.update(FIELDS, traceId=trace)
        log.handle(record)
        await asyncio.sleep(0)

    asyncio.run(main())
    direct, through_logging = "".join(stream.writes).splitlines()
    return direct, through_logging


def test_an_access_line_handed_straight_to_the_handler_is_the_line_logging_would_write(monkeypatch):
    for formatter in (TextFormatter(), JsonFormatter()):
        for trace in ("b" * 32, None):
            direct, through_logging = _both_ways(formatter, trace, monkeypatch)
            assert direct == through_logging
    assert (
        " INFO modhub.access [" + "b" * 32 + "] GET /openapi/v2/mods/7 200 method=GET "
        in _both_ways(TextFormatter(), "b" * 32, monkeypatch)[0]
    )


def test_an_access_line_goes_through_logging_when_anything_else_would_see_it():
    import asyncio

    from modhub.logs import log_directly

    async def direct(log) -> bool:
        return log_directly(log, None, "GET / 200", FIELDS)

    log, _, root = _served(TextFormatter(), "modhub.access")
    assert asyncio.run(direct(log))
    assert not log_directly(log, None, "GET / 200", FIELDS)  # no loop on this thread
    log.addHandler(logging.NullHandler())  # a handler of a test's or an operator's
    assert not asyncio.run(direct(log))
    log, _, root = _served(TextFormatter(), "modhub.access")
    log.addFilter(lambda record: False)
    assert not asyncio.run(direct(log))
    log, _, root = _served(TextFormatter(), "modhub.access")
    root.handlers[0].addFilter(lambda record: True)
    assert not asyncio.run(direct(log))
    log, _, root = _served(logging.Formatter(), "modhub.access")
    assert not asyncio.run(direct(log))
    log, _, root = _served(TextFormatter(), "modhub.access")
    log.setLevel(logging.WARNING)
    assert not asyncio.run(direct(log))
