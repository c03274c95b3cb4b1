"""The RQ job entry points (named by workers/dispatch.py): each takes this process's runtime and
runs the relay or the delivery with it. The only worker module that reads the runtime singleton."""

from __future__ import annotations

from workers.delivery import deliver_many
from workers.relay import relay_pending
from workers.runtime import current


def deliver_job(delivery_ids: list[int]) -> int:
    """RQ job: send these deliveries if they are still owed; returns how many were attempted."""
    return len(deliver_many(current(), delivery_ids))


def relay_job() -> int:
    """RQ job: relay every committed event now; send the first batch, enqueue the rest."""
    rt = current()
    rt.dispatcher.relay_started()
    ids = relay_pending(rt)
    size = rt.settings.webhook_batch_size
    rt.dispatcher.send(ids[size:])  # other workers take these while this one sends the first batch
    deliver_many(rt, ids[:size])  # saves a queue round trip for the common small burst
    return len(ids)
