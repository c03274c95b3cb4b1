"""The RQ job entry points (named by workers/dispatch.py): each takes this process's runtime and
runs the relay or the delivery with it. The only worker module that reads the runtime singleton."""

from __future__ import annotations

from workers.relay import RELAY_LIMIT, relay_batch
from workers.runtime import current
from workers.webhook_post import deliver_many

# A relay job sends up to this many batches' worth itself (one lease, sent concurrently). Under a stream of
# commits each relay job then delivers what was committed while the previous one ran, and the
# other workers take the next relay job: no delivery job waits in the queue behind relay jobs.
INLINE_BATCHES = 4


def deliver_job(delivery_ids: list[int]) -> int:
    """RQ job: send these deliveries if they are still owed; returns how many were attempted."""
    return len(deliver_many(current(), delivery_ids))


def relay_job() -> int:
    """RQ job: relay the events committed before it started; send up to INLINE_BATCHES batches
    itself (only the first batch of a larger burst), enqueue the rest as each relay transaction
    commits.

    It stops at the first short batch rather than when the outbox is empty: an event committed
    after `relay_started` has kicked a relay job of its own, and a job draining a busy outbox
    until it found it empty kept every delivery it created to itself until the commits paused
    (measured: p95 commit-to-receipt 27 s in an unpaced burst of 8,000 events).
    """
    rt = current()
    dispatcher = rt.dispatcher
    if dispatcher is None:
        raise RuntimeError("a relay job needs the RQ dispatcher (workers.runtime.build)")
    dispatcher.relay_started()
    size = rt.settings.webhook_batch_size
    mine: list[int] | None = None  # sent by this job: saves queue round trips
    count = 0
    while (batch := relay_batch(rt)) is not None:
        events, ids = batch
        count += len(ids)
        if mine is None:
            # A large burst: the first batch here, the rest to the other workers at once.
            keep = len(ids) if len(ids) <= INLINE_BATCHES * size else size
            mine, ids = ids[:keep], ids[keep:]
        dispatcher.send(ids, at_front=True)  # other workers take these meanwhile
        if events < RELAY_LIMIT:
            break
    deliver_many(rt, mine or [])  # one lease and one record for them all, sent concurrently
    return count
