"""modhub.web.Operation: an API handler run in the bounded thread pool with its session's end in
the same hop, an on-loop answer taking no thread, and a request body read from a thread."""

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor
from types import SimpleNamespace

import pytest
from connexion.context import _receive, _scope
from werkzeug.exceptions import ClientDisconnected

from modhub import web
from modhub.core.errors import ApiError


class FakeSession:
    def __init__(self):
        self.info = {}
        self.events = []

    def commit(self):
        self.events.append("commit")

    def rollback(self):
        self.events.append("rollback")

    def close(self):
        self.events.append("close")


def _platform():
    sessions = []

    def open_session():
        sessions.append(FakeSession())
        return sessions[-1]

    return SimpleNamespace(db=SimpleNamespace(session=open_session), name="p"), sessions


def _run(operation, receive=None, **kwargs):
    async def main():
        _scope.set({"type": "http", "method": "GET", "headers": [(b"x-a", b"1")], "client": ("10.0.0.9", 1)})
        _receive.set(receive)
        return await operation(**kwargs)

    return asyncio.run(main())


@pytest.fixture()
def pool():
    executor = ThreadPoolExecutor(2, thread_name_prefix="modhub-handler")
    yield executor
    executor.shutdown()


def test_a_handler_runs_in_the_pool_and_a_write_is_committed_once(pool):
    platform, sessions = _platform()

    def handler(post_id: int):
        web.session().info[web.WROTE] = True
        assert web.session() is sessions[0]  # one session per request
        return {
            "id": post_id,
            "thread": threading.current_thread().name,
            "p": web.platform().name,
            "a": web.request_headers()["X-A"],
            "peer": web.remote_addr(),
        }

    answer = _run(web.Operation(handler, platform, pool), post_id=7)
    assert answer["id"] == 7 and answer["thread"].startswith("modhub-handler")
    assert (answer["p"], answer["a"], answer["peer"]) == ("p", "1", "10.0.0.9")
    assert sessions[0].events == ["commit", "close"]


def test_a_read_only_request_does_not_commit_and_a_failure_rolls_back(pool):
    platform, sessions = _platform()

    def reads():
        web.session()
        return ({"ok": True}, 200)

    def fails():
        web.session().info[web.WROTE] = True
        raise ApiError("RECORD_NOT_FOUND")

    def refuses():
        web.session().info[web.WROTE] = True
        return ({"ok": False}, 409)

    _run(web.Operation(reads, platform, pool))
    with pytest.raises(ApiError):
        _run(web.Operation(fails, platform, pool))
    _run(web.Operation(refuses, platform, pool))
    assert [s.events for s in sessions] == [["close"], ["rollback", "close"], ["rollback", "close"]]


def test_an_on_loop_answer_takes_no_thread(pool):
    platform, _ = _platform()
    loop_thread = []

    def handler(post_id: int):
        return "from the thread"

    def on_loop(post_id: int):
        loop_thread.append(threading.current_thread().name)
        return "kept" if post_id == 1 else None

    web.answer_on_loop(handler, on_loop)
    operation = web.Operation(handler, platform, pool)
    assert asyncio.iscoroutinefunction(operation)
    assert _run(operation, post_id=1) == "kept"
    assert _run(operation, post_id=2) == "from the thread"
    assert loop_thread == [threading.current_thread().name] * 2


def _receiving(*chunks, end=True):
    messages = [{"type": "http.request", "body": c, "more_body": True} for c in chunks]
    if end:
        messages[-1]["more_body"] = False
    else:
        messages.append({"type": "http.disconnect"})

    async def receive():
        return messages.pop(0)

    return receive


def test_the_body_is_read_in_pieces_from_a_thread(pool):
    platform, _ = _platform()

    def handler():
        stream = web.request_stream()
        return [stream.read(3), stream.read(100), stream.read(5)]

    assert _run(web.Operation(handler, platform, pool), _receiving(b"abcd", b"efg")) == [b"abc", b"defg", b""]


@pytest.mark.parametrize("end", [True, False])
def test_a_body_cut_short_is_a_disconnection(pool, end):
    platform, _ = _platform()

    def handler():
        return web.BodyStream(web._call.get().receive, web._call.get().loop, length=10 if end else None).read(
            -1
        )

    with pytest.raises(ClientDisconnected):
        _run(web.Operation(handler, platform, pool), _receiving(b"abcd", end=end))
