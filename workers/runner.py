"""`modhub worker`: an RQ worker with the scheduler (retries are scheduled jobs) and the sweep
thread beside it (the webhook sweep, the download flush, and the maintenance jobs when due).

The worker class is SimpleWorker by default: measured with bench/webhooks.py, forking a child per
job (rq.Worker) costs more than the delivery itself; jobs here are short I/O and do not leak.
"""

from __future__ import annotations

import logging
import signal
import threading

import redis
from rq import SimpleWorker, Worker

from models.downloads.counting import RedisCounter, flush
from modhub.core.redis_store import bounded_client
from modhub.core.startup import collector_paused
from modhub.settings import Settings
from workers.maintenance import run_if_due
from workers.relay import sweep
from workers.runtime import build, install

log = logging.getLogger(__name__)
WORKER_CLASSES = {"simple": SimpleWorker, "fork": Worker}


class Sweeper(threading.Thread):
    """Runs the webhook sweep every MODHUB_WEBHOOK_SWEEP_SECONDS until stopped."""

    def __init__(self, rt):
        super().__init__(name="modhub-webhook-sweep", daemon=True)
        self.rt = rt
        self.stopping = threading.Event()
        self.downloads = RedisCounter(
            bounded_client(rt.settings.redis_url, rt.settings.redis_timeout_seconds), "modhub:quota"
        )
        self.worker = None  # the RQ worker running now (set by run_worker)
        self.platform = None  # for the maintenance jobs, built at their first turn

    def run(self) -> None:
        """Sweep until stopped; a failed pass (Redis or database down) is retried next period."""
        while not self.stopping.wait(self.rt.settings.webhook_sweep_seconds):
            try:
                revive_scheduler(self.worker)
                sweep(self.rt)
                flush(self.rt.db, self.downloads)  # download counts into the statistics
                self.maintain()
            except Exception as exc:  # noqa: BLE001 - the rows stay owed; try again next period
                log.warning(
                    "webhook sweep failed (%s: %s); retrying in %g s",
                    type(exc).__name__,
                    exc,
                    self.rt.settings.webhook_sweep_seconds,
                )

    def maintain(self) -> None:
        """The maintenance jobs, when this worker's turn has come (workers.maintenance)."""
        interval = self.rt.settings.maintenance_interval_seconds
        if not interval:
            return
        if self.platform is None:
            from modhub.app import build_platform

            self.platform = build_platform(self.rt.settings)
        run_if_due(self.platform, self.downloads.client, interval=interval)


def _stop_requested(worker) -> bool:
    """Whether RQ recorded a SIGTERM or SIGINT (warm shutdown) on this worker."""
    return bool(
        getattr(worker, "_shutdown_requested_date", None) or getattr(worker, "_stop_requested", False)
    )


def revive_scheduler(worker) -> bool:
    """Restart the worker's RQ scheduler process if it died (a Redis restart kills it).

    RQ itself only looks in its maintenance pass, every 10 minutes, and only between jobs; until
    then scheduled retries would wait for the sweep's lease grace. Returns True when restarted.
    """
    scheduler = getattr(worker, "scheduler", None)
    if scheduler is None or (scheduler._process is not None and scheduler._process.is_alive()):
        return False  # no scheduler asked for, or alive (is_alive() also reaps a dead child)
    scheduler.acquire_locks(auto_start=True)  # another worker may hold the lock: then it runs it
    started = scheduler._process is not None and scheduler._process.is_alive()
    if started:
        log.warning("the RQ scheduler process had stopped (Redis restarted?); started a new one")
    return started


def run_worker(
    settings: Settings,
    queues: list[str],
    *,
    worker_class: str = "simple",
    burst: bool = False,
    log_level: str = "INFO",
) -> None:
    """Run one RQ worker over the configured Redis, with the scheduler and the sweep.

    The runtime is built here from the command's settings and installed for the jobs this process
    runs (a forked job child rebuilds its connections from the same settings).
    """
    logging.getLogger("httpx").setLevel(logging.WARNING)  # one line per POST is noise (and URLs)
    logging.getLogger().setLevel(log_level)
    with collector_paused():  # modhub.core.startup
        rt = build(settings)
    install(rt)
    if rt.dispatcher is None:
        raise RuntimeError("modhub worker needs MODHUB_REDIS_URL (RQ runs on Redis)")
    queues = list(queues) or [rt.settings.webhook_queue, "default"]
    sweeper = Sweeper(rt)
    sweeper.start()
    # Its own connection: blocking dequeues must not hit the dispatcher's short socket timeout.
    connection = redis.Redis.from_url(
        rt.settings.redis_url, socket_connect_timeout=rt.settings.redis_timeout_seconds
    )
    stop = threading.Event()
    try:
        while not _work_once(WORKER_CLASSES[worker_class], queues, connection, burst, log_level, sweeper):
            # Redis is restarting: try again (the sweep keeps the work owed). A SIGTERM or SIGINT
            # while waiting stops the process: the handlers of the RQ worker that gave up would
            # only tell that worker.
            for signum in (signal.SIGTERM, signal.SIGINT):
                signal.signal(signum, lambda *_: stop.set())
            if stop.wait(1):
                log.info("stopped while waiting for Redis")
                return
    finally:
        sweeper.stopping.set()


def _work_once(worker_class, queues, connection, burst: bool, log_level: str, sweeper) -> bool:
    """Run an RQ worker; False when it gave up on a Redis connection error rather than a stop.

    RQ quits its loop on a connection error met outside a dequeue (maintenance, heartbeat), so
    a Redis restart could end the process; a fresh worker (and scheduler) is started instead.
    """
    worker = None
    try:
        worker = worker_class(queues, connection=connection)
        sweeper.worker = worker
        worker.work(with_scheduler=True, burst=burst, logging_level=log_level)
    except redis.ConnectionError as exc:
        if _stop_requested(worker):  # a SIGTERM met Redis down (RQ's teardown writes to it)
            log.info("stopped; Redis was unreachable (%s)", exc)
            return True
        log.warning("Redis is unreachable (%s); retrying in 1 s", exc)
        return False
    if burst or _stop_requested(worker):
        return True
    log.warning("the RQ worker stopped on an error (Redis restarted?); starting a new one in 1 s")
    return False
