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
