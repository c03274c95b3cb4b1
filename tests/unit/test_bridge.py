"""modhub.bridge.OneHopWSGI: a WSGI application served over ASGI with one thread hand-off per
ordinary response, long bodies in BUFFER-sized hand-offs, errors and closing as PEP 3333 says."""

import asyncio
import contextvars
import threading

import pytest
from starlette.responses import PlainTextResponse

from modhub import bridge
from modhub.bridge import BUFFER, OneHopWSGI

REQUEST = contextvars.ContextVar("request", default=None)


def scope(method="GET", path="/", headers=()):
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": list(headers),
        "client": ("127.0.0.1", 5000),
        "server": ("127.0.0.1", 8000),
    }


def serve(app, request_scope=None, body_parts=(b"",)):
    """The ASGI messages sent for one request, and how many times a thread was handed work."""
    middleware = OneHopWSGI(app)
    hand_offs = []
    submit = middleware.executor.submit

    def counting_submit(*args, **kwargs):
        hand_offs.append(1)
        return submit(*args, **kwargs)

    middleware.executor.submit = counting_submit
    parts = list(body_parts)
    sent = []

    async def receive():
        body = parts.pop(0) if parts else b""
        return {"type": "http.request", "body": body, "more_body": bool(parts)}

    async def send(message):
        sent.append(message)

    async def run():
        REQUEST.set("request-7")
        await middleware(request_scope or scope(), receive, send)

    try:
        asyncio.run(run())
    finally:
        middleware.executor.shutdown()
    return sent, len(hand_offs)


class Closing:
    """An iterable that notes whether it was closed."""

    def __init__(self, chunks, fail_at=None):
        self.chunks, self.fail_at, self.closed = chunks, fail_at, False

    def __iter__(self):
        for i, chunk in enumerate(self.chunks):
            if i == self.fail_at:
                raise RuntimeError("the body broke")
            yield chunk

    def close(self):
        self.closed = True


def test_a_one_chunk_answer_is_one_hand_off_and_two_messages():
    seen = {}

    def app(environ, start_response):
        seen["thread"] = threading.current_thread().name
        seen["request"] = REQUEST.get()
        start_response("201 Created", [("Content-Type", "application/json"), ("X-Thing", " a ")])
        return [b'{"ok":true}']

    sent, hand_offs = serve(app)
    assert sent == [
        {
            "type": "http.response.start",
            "status": 201,
            "headers": [(b"content-type", b"application/json"), (b"x-thing", b"a")],
        },
        {"type": "http.response.body", "body": b'{"ok":true}', "more_body": False},
    ]
    assert hand_offs == 1
    assert seen["request"] == "request-7"  # the request's context went with the work
    assert seen["thread"] != threading.main_thread().name


def test_a_long_body_goes_in_buffer_sized_hand_offs_and_is_closed():
    chunk = b"x" * 8192
    body = Closing([chunk] * (3 * BUFFER // 8192 + 1))

    def app(environ, start_response):
        start_response("200 OK", [("Content-Length", str(len(chunk) * len(body.chunks)))])
        return body

    sent, hand_offs = serve(app)
    assert sent[0]["type"] == "http.response.start"
    assert b"".join(m["body"] for m in sent[1:]) == chunk * len(body.chunks)
    assert [m["more_body"] for m in sent[1:]][-1] is False
    assert all(m["more_body"] for m in sent[1:-1])
    assert hand_offs == 4  # 3 full buffers, then the rest with the end
    assert body.closed


def test_write_callable_and_request_body_keep_their_order():
    def app(environ, start_response):
        received = environ["wsgi.input"].read()
        write = start_response("200 OK", [])
        write(b"written:")
        return [received, b"!"]

    sent, _ = serve(app, scope("POST", headers=[(b"content-length", b"10")]), body_parts=(b"hello", b" body"))
    assert b"".join(m["body"] for m in sent[1:]) == b"written:hello body!"


def test_an_error_before_the_answer_propagates_and_nothing_is_sent():
    def app(environ, start_response):
        raise LookupError("handler failed")

    with pytest.raises(LookupError):
        serve(app)


def test_an_error_in_the_middle_of_a_long_body_closes_the_iterable():
    body = Closing([b"y" * BUFFER, b"z" * BUFFER, b"never"], fail_at=2)

    def app(environ, start_response):
        start_response("200 OK", [])
        return body

    with pytest.raises(RuntimeError, match="the body broke"):
        serve(app)
    assert body.closed


def test_exc_info_replaces_headers_not_yet_handed_over():
    def app(environ, start_response):
        start_response("200 OK", [("X-First", "1")])
        try:
            raise ValueError("late")
        except ValueError:
            import sys

            start_response("500 Internal Server Error", [("X-Second", "2")], sys.exc_info())
        return [b"oops"]

    sent, _ = serve(app)
    assert (sent[0]["status"], sent[0]["headers"]) == (500, [(b"x-second", b"2")])


def test_site_pages_are_served_through_the_one_hop_bridge(settings, db, quota, contract):
    from modhub.app import create_app

    app = create_app(settings, db=db, quota=quota, contract=contract)

    async def probe(_request):
        return PlainTextResponse("own route")

    app.add_url_rule("/probe-route", "probe", probe)  # the app's own routes come first
    with app.test_client() as client:  # Connexion mounts the API when it builds its stack
        assert client.get("/").status_code == 200  # the site's landing page
        assert client.get("/probe-route").text == "own route"
        assert client.get("/openapi/v2/nowhere").json()["code"] == 200401  # Flask's 404, enveloped
    inner = app._middleware_app
    site_side = inner.router.default  # what the AsyncApp hands a request no operation claims
    assert isinstance(site_side, OneHopWSGI) and inner.apis[""][0].router.default is site_side
    assert site_side.app == app.app.wsgi_app
    assert bridge.BUFFER == BUFFER
