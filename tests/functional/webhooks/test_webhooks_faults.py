"""Delivery faults at production timings (10 s sweep, 30 s lease, 10 s timeout), real processes:

- a worker SIGKILLed in the middle of a 600-event burst: every event reaches the receiver (at
  least once, deduplicated by X-Webhook-Id), and new events are delivered in under 1 s within
  15 s of a worker's return (no "relay pending" flag holding them back to the sweep);
- Redis restarted under a live worker: the RQ scheduler process is revived at the next sweep
  tick, so a retry is sent on its schedule (5 s) instead of waiting for the sweep's lease grace.
"""

from __future__ import annotations

import time

import pytest

from models.webhooks.events import emit
from tests.functional.webhooks.processes import wait_until
from tests.functional.webhooks.receiver import Reply
from tests.functional.webhooks.test_webhooks_end_to_end import _app_and_subscription

pytestmark = pytest.mark.slow  # live servers, processes or migrations

PRODUCTION = {
    "MODHUB_WEBHOOK_SWEEP_SECONDS": "10",
    "MODHUB_WEBHOOK_LEASE_SECONDS": "30",
    "MODHUB_WEBHOOK_TIMEOUT_SECONDS": "10",
}
BURST, KILL_AT = 600, 200


def _emit(platform, n: int) -> tuple[str, float]:
    with platform.db.session() as s, s.begin():
        uid = emit(s, kind="resource.published", data={"postId": n, "title": f"E{n}"}).event_id
    return uid, time.time()  # committed (the after-commit hand-over has run)


def test_worker_sigkilled_mid_burst_loses_nothing_and_latency_recovers(stack, receiver):
    stack.env.update(PRODUCTION)
    _, sub = _app_and_subscription(stack, receiver.url)
    platform = stack.platform()
    doomed = stack.start_worker()
    sent: dict[str, float] = {}
    back_at: list[float] = []

    def burst():
        for n in range(BURST):
            uid, at = _emit(platform, n)
            sent[uid] = at
            if n == KILL_AT:
                doomed.kill()  # mid-burst: jobs it held are gone, events keep coming

    started = time.monotonic()
    burst()
    assert len(sent) == BURST and doomed.proc.poll() is not None
    took = time.monotonic() - started
    time.sleep(1)
    log = stack.tmp / f"worker-{len(stack.workers)}.log"
    stack.start_worker()  # back after the burst: 400+ events and the killed worker's jobs owed
    # "Returned" = listening: the killed worker's RQ registration outlives it, so the count that
    # start_worker waits for is reached before the new process has even imported (20 s here).
    wait_until(
        lambda: log.exists() and b"Listening on" in log.read_bytes(),
        timeout=120,
        what="the new worker listening",
    )
    back_at.append(time.monotonic())

    probes: list[tuple[str, float, float]] = []  # (uid, since the return, commit time)
    while time.monotonic() - back_at[0] < 22:
        uid, at = _emit(platform, 10_000 + len(probes))
        probes.append((uid, time.monotonic() - back_at[0], at))
        time.sleep(0.5)

    want = set(sent) | {uid for uid, _, _ in probes}

    def all_received():
        got = {r.headers["x-webhook-id"] for r in receiver.received}
        return want <= got

    wait_until(all_received, timeout=120, what=f"{len(want)} distinct events received")
    first_seen: dict[str, float] = {}
    for r in receiver.received:
        first_seen.setdefault(r.headers["x-webhook-id"], r.at)
    assert all(r.signed_by(sub["secret"]) for r in receiver.received[:50])
    late = [
        (round(since, 1), round(first_seen[uid] - at, 2))
        for uid, since, at in probes
        if since >= 15 and first_seen[uid] - at >= 1.0
    ]
    print(
        f"\nburst of {BURST} committed in {took:.1f} s; probe latencies (s since return, latency): "
        f"{[(round(s, 1), round(first_seen[u] - a, 2)) for u, s, a in probes]}"
    )
    assert [p for p in probes if p[1] >= 15], "no probe ran 15 s after the return"
    assert late == [], f"deliveries slower than 1 s 15 s after the worker's return: {late}"


def test_redis_restart_revives_the_scheduler_so_retries_keep_their_schedule(stack, receiver):
    stack.env.update(PRODUCTION)
    _, sub = _app_and_subscription(stack, receiver.url)
    platform = stack.platform()
    stack.start_worker()
    stack.redis.stop()
    time.sleep(1)
    stack.redis.start()  # empty: the scheduler's lock and the worker's registration are gone
    time.sleep(12)  # one sweep tick (10 s) after the restart: the scheduler must be back
    receiver.replies = [Reply(status=500)]  # the first attempt fails: a retry in 5 s (± jitter)
    _emit(platform, 1)
    first, second = receiver.wait_for(2, timeout=60)[:2]
    assert first.headers["x-webhook-id"] == second.headers["x-webhook-id"]
    gap = second.at - first.at
    # Sent by RQ's scheduler on time; a dead scheduler leaves it to the sweep (30 s lease grace).
    assert gap < 12, f"retry came {gap:.1f} s after the failure"


def test_sigterm_while_redis_is_down_stops_the_worker(stack):
    """A worker told to stop while Redis is away stops: it does not reconnect and work on."""
    worker = stack.start_worker()
    time.sleep(3)  # imported, registered, dequeuing
    stack.redis.stop()
    time.sleep(1.5)  # the blocking dequeue has failed: the worker is between attempts or in one
    worker.proc.terminate()
    assert worker.proc.wait(15) == 0
    stack.redis.start()
