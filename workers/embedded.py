"""The embedded mode's in-process relay: without Redis, one thread of the server relays the same
outbox and sends due deliveries itself, woken after each commit and at every sweep period."""

from __future__ import annotations

import datetime as dt
import logging
import threading

from workers.relay import overdue_deliveries, relay_pending
from workers.runtime import Runtime
from workers.webhook_post import deliver_many

log = logging.getLogger(__name__)


class LocalDispatcher:
    """The embedded dispatcher: every hand-over just wakes the relay thread."""

    def __init__(self):
        self.wake = threading.Event()

    def notify(self, event_ids: list[int], delivery_ids: list[int]) -> None:
        """After a commit: wake the relay thread."""
        self.wake.set()


class EmbeddedRelay:
    """A daemon thread delivering from the outbox; retries are due rows it finds on each pass."""

    def __init__(self, runtime: Runtime, dispatcher: LocalDispatcher, downloads=None):
        self.runtime = runtime
        self.dispatcher = dispatcher
        self.downloads = downloads  # the in-process download counter, flushed on each pass
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._loop, name="modhub-webhook-relay", daemon=True)

    def start(self) -> EmbeddedRelay:
        """Start the thread."""
        self.thread.start()
        return self

    def stop(self, timeout: float = 15) -> None:
        """Ask the thread to finish its pass, wait for it, and close its connections."""
        self.stopping.set()
        self.dispatcher.wake.set()
        self.thread.join(timeout)
        self.runtime.close()

    def run_once(self) -> int:
        """One pass: relay every committed event, then send every due delivery."""
        relay_pending(self.runtime)
        if self.downloads is not None:
            from models.downloads.counting import flush

            flush(self.runtime.db, self.downloads)
        due = overdue_deliveries(self.runtime, grace=dt.timedelta(0))
        size = self.runtime.settings.webhook_batch_size
        sent = 0
        for i in range(0, len(due), size):
            sent += len(deliver_many(self.runtime, due[i : i + size]))
        return sent

    def _loop(self) -> None:
        period = min(self.runtime.settings.webhook_sweep_seconds, 1.0)
        while not self.stopping.is_set():
            self.dispatcher.wake.wait(period)
            self.dispatcher.wake.clear()
            try:
                self.run_once()
            except Exception:  # noqa: BLE001 - keep relaying; the rows are still owed
                log.exception("embedded webhook relay pass failed; retrying")


def start(platform) -> EmbeddedRelay:
    """Attach an in-process relay to this platform's database and start it."""
    from workers.dispatch import attach

    dispatcher = LocalDispatcher()
    runtime = Runtime(
        settings=platform.settings,
        db=platform.db,
        secrets=platform.secrets,
        dispatcher=None,
        clock=platform.clock,
    )
    attach(platform.db, dispatcher)
    return EmbeddedRelay(runtime, dispatcher, platform.download_counter).start()
