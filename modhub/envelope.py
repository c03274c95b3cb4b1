"""The response envelope (ResponseDTO), the per-request state that fills its traceId, and the JSON
encoder of response bodies (compact, Decimals as numbers)."""

from __future__ import annotations

import contextvars
import datetime as dt
import decimal
import json
import os
import random
import re
from dataclasses import dataclass, field
from typing import Any

from connexion.jsonifier import Jsonifier

from modhub import jsontext
from modhub.core.errors import ApiError

_REQUEST_ID = re.compile(r"^[A-Za-z0-9._-]{1,64}$")
SUCCESS_MSG = "success"


@dataclass
class RequestState:
    """What one request carries through the layers: its id, auth result and extra headers."""

    request_id: str
    headers: list[tuple[bytes, bytes]] = field(default_factory=list)
    app_id: int | None = None
    proxy_user_id: int | None = None
    token_scopes: tuple[str, ...] = ()
    session: Any = None  # the gateway's database session, handed on to the handler
    catalog_generation: int | None = None  # from the quota round trip (signed requests)

    def take_session(self):
        """The gateway's session, now owned by the caller (None when the gateway opened none)."""
        session, self.session = self.session, None
        return session

    def add_header(self, name: str, value: str) -> None:
        """Queue a header for the response, whatever answers it (handler or error)."""
        self.headers.append((name.lower().encode("latin-1"), value.encode("latin-1")))


current: contextvars.ContextVar[RequestState] = contextvars.ContextVar("modhub_request")


# Fresh request ids: 128 random bits as 32 hex digits, drawn from a generator of this module's
# own, seeded from the system's randomness at import and again in a forked child. An id names a
# request in logs and reports and guards nothing, so it needs no system call per request
# (uuid4(): os.urandom and a UUID object, nine times the time for the same 32 digits).
_IDS = random.Random()
os.register_at_fork(after_in_child=_IDS.seed)


def request_id_from(incoming: str | None) -> str:
    """Honour a well-formed incoming X-Request-Id, else make a fresh one."""
    if incoming and _REQUEST_ID.match(incoming):
        return incoming
    return f"{_IDS.getrandbits(128):032x}"


def trace_id() -> str:
    """The current request's id ('' outside a request)."""
    state = current.get(None)
    return state.request_id if state else ""


def data_type(data) -> int:
    """dataType as documented: 0 none, 1 object, 2 array, 3 scalar."""
    if data is None:
        return 0
    if isinstance(data, dict):
        return 1
    if isinstance(data, (list, tuple)):
        return 2
    return 3


def ok(data=None) -> dict:
    """A success envelope around data."""
    return {
        "code": 0,
        "ok": True,
        "msg": SUCCESS_MSG,
        "level": "info",
        "data": data,
        "dataType": data_type(data),
        "traceId": trace_id(),
    }


_OK_HEAD = f'{{"code":0,"ok":true,"msg":"{SUCCESS_MSG}","level":"info","data":'.encode()


def ok_bytes(data_json: bytes, data_type_code: int) -> bytes:
    """The success envelope as UTF-8 JSON around serialized data of the given dataType."""
    tail = f',"dataType":{data_type_code},"traceId":{json.dumps(trace_id())}}}'.encode()
    return b"".join((_OK_HEAD, data_json, tail))


def error(code: int, msg: str, status: int) -> dict:
    """An error envelope: non-zero code, data null."""
    return {
        "code": code,
        "ok": False,
        "msg": msg,
        "level": "error" if status >= 500 else "warn",
        "data": None,
        "dataType": 0,
        "traceId": trace_id(),
    }


def error_bytes(exc: ApiError) -> bytes:
    """The serialized error envelope of an ApiError."""
    return jsontext.dumps(error(exc.code, exc.message, exc.status)).encode()


def _default(value):
    if isinstance(value, decimal.Decimal):
        return float(value)
    if isinstance(value, (dt.datetime, dt.date)):
        return value.isoformat()
    raise TypeError(f"{type(value).__name__} is not JSON serializable")


class _CompactJSON:
    """json with compact separators, Decimals as numbers and no key sorting."""

    @staticmethod
    def dumps(data, **kwargs):
        kwargs.pop("indent", None)
        return jsontext.dumps(data, default=_default)

    loads = staticmethod(jsontext.loads)


JSONIFIER = Jsonifier(_CompactJSON)
dumps = _CompactJSON.dumps  # compact JSON text, no trailing line feed (Jsonifier adds one)


def dumps_bytes(data) -> bytes:
    """dumps() as UTF-8 bytes."""
    return jsontext.dumps_bytes(data, default=_default)
