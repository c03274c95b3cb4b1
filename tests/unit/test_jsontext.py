"""modhub.jsontext gives the text and the values the standard library's json gives."""

from __future__ import annotations

import dataclasses
import datetime as dt
import decimal
import json

import pytest

from modhub import jsontext
from modhub.envelope import _default


@dataclasses.dataclass
class Point:
    x: int


def _json(data) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"), default=_default)


@pytest.mark.parametrize(
    "data",
    [
        {"postId": 7, "mainName": "光影 Shaders ✓", "score": 4.25, "tags": ["a", "b"], "none": None},
        [1.0, 0.1, 2.5e-3, 1e15, -0.0, True, False],
        {"at": dt.datetime(2026, 11, 26, 4, 3, 2, 123456, tzinfo=dt.UTC), "day": dt.date(2026, 11, 26)},
        {"price": decimal.Decimal("19.99"), 1: "int key", None: "null key"},
        {"big": 2**70, "negative": -(2**65)},  # beyond orjson's 64 bits
        {"surrogate": "\ud800"},  # a lone surrogate orjson refuses
        {"quote": 'a "b" \\ c\n\t\u0001', "slash": "</script>"},
    ],
)
def test_dumps_writes_what_json_writes(data):
    assert jsontext.dumps(data, default=_default) == _json(data)


def test_dumps_writes_an_exponent_without_padding_the_same_number():
    data = [1e-7, 1e22]
    assert jsontext.dumps(data) == "[1e-7,1e+22]" and json.loads(jsontext.dumps(data)) == data


def test_dumps_sends_dataclasses_to_default_as_json_does():
    with pytest.raises(TypeError):
        jsontext.dumps(Point(1), default=_default)
    assert jsontext.dumps(Point(1), default=dataclasses.asdict) == '{"x":1}'


@pytest.mark.parametrize(
    "text",
    [
        '{"a":[1,2.5,"é"],"b":null}',
        '{"big":123456789012345678901234567890,"edge":18446744073709551615}',
        '["\\ud800"]',
        "[NaN]",
        "1e400",
    ],
)
def test_loads_reads_what_json_reads(text):
    assert repr(jsontext.loads(text)) == repr(json.loads(text))
    assert repr(jsontext.loads(text.encode())) == repr(json.loads(text.encode()))


def test_loads_refuses_what_json_refuses():
    with pytest.raises(json.JSONDecodeError):
        jsontext.loads('{"a":')


@pytest.mark.parametrize("around", [{"n": 1}, {"n": 2**70}, {"n": "\ud800"}])  # orjson, then json's
def test_raw_text_is_written_as_it_is(around):
    """A Raw (a kept record's JSON text) stands in the text as it is, in orjson's text and in the
    standard library's (where orjson refuses the data around it)."""
    kept = '{"postId":7,"mainName":"光影"}'
    text = jsontext.dumps({**around, "list": [jsontext.Raw(kept.encode()), None]}, default=_default)
    assert text == _json({**around, "list": [json.loads(kept), None]})
    assert jsontext.dumps_bytes([jsontext.Raw(b"[1,2]")]) == b"[[1,2]]"
