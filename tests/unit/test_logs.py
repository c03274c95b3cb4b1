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
