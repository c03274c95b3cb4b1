"""RedisQuota.hit_async on an event loop (modhub.quota.Pipe): exact counts when requests of one
loop, several loops and several processes count at once, scripts of one pass of the loop sent in
one write, the script reloaded, a connection closed by Redis reopened once, a stalled or absent
Redis answered 200503 after one wait."""

import asyncio
import socket
import subprocess
import sys
import threading
import time

import pytest
import redis

from modhub import redis_pipe as quota_module
from modhub.core.errors import ApiError
from modhub.quota import RedisQuota
from tests.support import stalled_redis_quota

NOON = 1_763_683_200.0 + 12 * 3600 + 30


def test_concurrent_hits_of_one_loop_are_exact_and_share_writes(quota, monkeypatch):
    writes = []
    real_flush = quota_module.Pipe._flush

    def counting_flush(pipe):
        pending = len(pipe.outgoing)
        real_flush(pipe)
        if pending and not pipe.outgoing:  # written
            writes.append(pending)

    monkeypatch.setattr(quota_module.Pipe, "_flush", counting_flush)

    async def burst():
        return await asyncio.gather(*[quota.hit_async(11, 25, 1000, now=NOON) for _ in range(40)])

    verdicts = asyncio.run(burst())
    assert [v.verdict for v in verdicts].count(0) == 25
    assert [v.verdict for v in verdicts].count(1) == 15  # refused, and not counted
    assert sorted(v.minute_count for v in verdicts if v.verdict == 0) == list(range(1, 26))
    assert quota.usage(11, now=NOON) == (25, 25)
    assert sum(writes) == 40 and len(writes) < 40  # the burst went out in fewer writes than calls


def test_hits_from_loops_threads_and_processes_at_once_count_exactly(quota, settings):
    """Two processes on event loops, two loops in threads and two threads calling hit() share
    one minute limit: exactly the limit is counted, whoever asked."""
    limit, per_caller = 60, 20  # 6 callers x 20 attempts = 120 > 60
    script = (
        "import asyncio, redis, sys\n"
        "from modhub.quota import RedisQuota\n"
        f"q = RedisQuota(redis.Redis.from_url({settings.redis_url!r}), prefix={quota.prefix!r})\n"
        "async def main():\n"
        f"    vs = await asyncio.gather(*[q.hit_async(12, {limit}, 10**6, now={NOON})"
        f" for _ in range({per_caller})])\n"
        "    print(sum(v.verdict == 0 for v in vs))\n"
        "asyncio.run(main())\n"
    )
    processes = [
        subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True) for _ in range(2)
    ]
    accepted = []

    def on_a_loop():
        async def main():
            return await asyncio.gather(
                *[quota.hit_async(12, limit, 10**6, now=NOON) for _ in range(per_caller)]
            )

        accepted.append(sum(v.verdict == 0 for v in asyncio.run(main())))

    def in_a_thread():
        accepted.append(sum(quota.hit(12, limit, 10**6, now=NOON).verdict == 0 for _ in range(per_caller)))

    threads = [threading.Thread(target=f) for f in (on_a_loop, on_a_loop, in_a_thread, in_a_thread)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    accepted += [int(p.communicate(timeout=60)[0]) for p in processes]
    assert all(p.returncode == 0 for p in processes)
    assert sum(accepted) == limit
    assert quota.usage(12, now=NOON) == (limit, limit)


def test_each_loop_has_its_own_pipe_and_finished_loops_are_dropped(quota):
    async def pipe_of_this_loop():
        await quota.hit_async(13, 100, 100, now=NOON)
        return quota._pipe()

    first = asyncio.run(pipe_of_this_loop())
    second = asyncio.run(pipe_of_this_loop())
    assert first is not second and first.loop is not second.loop
    assert list(quota._pipes.values()) == [second]  # the first loop closed: its entry went
    assert quota.usage(13, now=NOON) == (2, 2)


def test_a_forgotten_script_is_sent_whole_once(quota):
    real = quota.script.sha

    async def twice():
        quota.script.sha = "0" * 40  # as after a Redis restart or SCRIPT FLUSH: unknown to Redis
        first = await quota.hit_async(14, 10, 10, now=NOON)
        return first, quota.script.sha, await quota.hit_async(14, 10, 10, now=NOON)

    first, sha, second = asyncio.run(twice())
    assert first.verdict == 0 and sha == real
    assert second.minute_count == 2


def test_a_connection_closed_by_redis_is_reopened_once(quota, redis_client):
    async def run():
        assert (await quota.hit_async(15, 10, 10, now=NOON)).verdict == 0
        pipe = quota._pipe()
        redis_client.client_kill_filter(_id=await pipe.call(("CLIENT", "ID")))
        verdict = await quota.hit_async(15, 10, 10, now=NOON)  # the killed one fails, a new one counts
        return pipe, verdict

    killed, verdict = asyncio.run(run())
    assert verdict.verdict == 0 and verdict.minute_count == 2
    assert killed.lost and quota._pipes[killed.loop] is not killed


def test_a_stalled_redis_is_a_503_after_one_timeout_then_a_new_connection():
    with stalled_redis_quota() as q:

        async def run():
            started = time.monotonic()
            with pytest.raises(ApiError) as err:
                await q.hit_async(1, 10, 10)
            waited = time.monotonic() - started
            stalled = next(iter(q._pipes.values()))
            return err.value.code, waited, stalled.lost

        code, waited, dropped = asyncio.run(run())
        assert code == 200503
        assert 0.25 < waited < 0.55  # one timeout, not retried
        assert dropped  # the next call opens a new connection


def test_redis_down_is_a_503():
    q = RedisQuota(redis.Redis(host="127.0.0.1", port=1, socket_timeout=0.5, socket_connect_timeout=0.2))

    async def run():
        with pytest.raises(ApiError) as err:
            await q.hit_async(1, 10, 10)
        return err.value.code

    assert asyncio.run(run()) == 200503


def test_database_and_password_of_the_url_are_used(quota, redis_client):
    """The pipe selects the URL's database (and would authenticate): counts land where the
    threaded path's do."""
    url = redis_client.connection_pool.connection_kwargs
    q = RedisQuota(
        redis.Redis(host=url.get("host", "localhost"), port=url.get("port", 6379), db=url.get("db", 0)),
        prefix=quota.prefix,
    )
    asyncio.run(q.hit_async(16, 10, 10, now=NOON))
    assert quota.usage(16, now=NOON) == (1, 1)
    wrong = RedisQuota(
        redis.Redis(
            host=url.get("host", "localhost"), port=url.get("port", 6379), password="not-the-password"
        ),
        prefix=quota.prefix,
    )

    async def refused():
        with pytest.raises(ApiError) as err:
            await wrong.hit_async(16, 10, 10, now=NOON)
        return err.value.code

    assert asyncio.run(refused()) == 200503  # AUTH refused: the connection is not used
    assert quota.usage(16, now=NOON) == (1, 1)


def test_without_set_up_commands_the_first_calls_go_out_at_once():
    """Database 0 and no password (the default URL): nothing to wait for before the calls. A
    stand-in server answers each quota script; the calls must not wait for a timeout."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    received = []

    def answer():
        conn, _ = server.accept()
        with conn:
            while data := conn.recv(65536):
                received.append(data)
                conn.sendall(b"*4\r\n:0\r\n:1\r\n:1\r\n:5\r\n" * data.count(b"*11\r\n$7\r\nEVALSHA"))

    threading.Thread(target=answer, daemon=True).start()
    try:
        q = RedisQuota(redis.Redis(host="127.0.0.1", port=server.getsockname()[1], socket_timeout=5))

        async def run():
            started = time.monotonic()
            verdicts = await asyncio.gather(*[q.hit_async(1, 10, 10) for _ in range(3)])
            return verdicts, time.monotonic() - started

        verdicts, waited = asyncio.run(run())
        assert [(v.verdict, v.generation) for v in verdicts] == [(0, 5)] * 3
        assert waited < 1  # not held until the 5 s timeout
        assert not any(b"SELECT" in d or b"AUTH" in d for d in received)
    finally:
        server.close()
