"""Prometheus metrics (prometheus-client): defined once, recorded where things happen, served
by GET /metrics (modhub.ops).

`modhub serve` runs several uvicorn worker processes: it points PROMETHEUS_MULTIPROC_DIR at a
folder it empties at start (MODHUB_METRICS_DIR, default <data>/metrics) before any worker
imports this module, so each process writes its values to files there and /metrics, answered by
any worker, adds them up. Without that variable (`modhub run`, tests) the values live in the
process. Recording a request costs one counter increment and one histogram observation on
children looked up once per (operation, status).
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    disable_created_metrics,
    generate_latest,
    values,
)
from prometheus_client.core import GaugeMetricFamily

from modhub import __version__

disable_created_metrics()  # no *_created series: half the lines, nothing a dashboard reads
MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"
CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"  # what generate_latest writes
# Whether values go to files (the variable was set before prometheus_client was first imported)
MULTIPROCESS = values.ValueClass is not values.MutexValue

REQUESTS = Counter(
    "modhub_http_requests_total",
    "HTTP requests answered, by contract operation and status",
    ["operation", "status"],
)
LATENCY = Histogram(
    "modhub_http_request_duration_seconds",
    "Time from the request's arrival to its response start, by contract operation",
    ["operation"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0),
)
QUOTA_REFUSALS = Counter(
    "modhub_quota_refusals_total", "Requests refused by an application quota", ["window"]
)
DB_POOL_IN_USE = Gauge(
    "modhub_db_pool_connections_in_use",
    "Database connections checked out of the pools",
    multiprocess_mode="livesum",
)
DB_POOL_OPEN = Gauge(
    "modhub_db_pool_connections_open", "Database connections the pools hold open", multiprocess_mode="livesum"
)
DB_POOL_SIZE = Gauge(
    "modhub_db_pool_size",
    "Configured pool size (MODHUB_DB_POOL_SIZE) summed over processes",
    multiprocess_mode="livesum",
)
WEBHOOK_DELIVERIES = Counter(
    "modhub_webhook_deliveries_total",
    "Webhook delivery attempts by outcome (this host's processes)",
    ["outcome"],
)
DOWNLOAD_BYTES = Counter("modhub_download_bytes_total", "File bytes sent by this service (disk storage)")

_ALL = (
    REQUESTS,
    LATENCY,
    QUOTA_REFUSALS,
    DB_POOL_IN_USE,
    DB_POOL_OPEN,
    DB_POOL_SIZE,
    WEBHOOK_DELIVERIES,
    DOWNLOAD_BYTES,
)
_requests: dict = {}  # (operation, status) -> (counter child, histogram child)


def observe_request(operation: str, status: int, seconds: float) -> None:
    """Count one answered request and its duration."""
    pair = _requests.get((operation, status))
    if pair is None:
        pair = _requests[(operation, status)] = (
            REQUESTS.labels(operation, str(status)),
            LATENCY.labels(operation),
        )
    pair[0].inc()
    pair[1].observe(seconds)


def quota_refused(code: int) -> None:
    """Count a quota refusal (200101: the minute window, 200102: the day)."""
    QUOTA_REFUSALS.labels("minute" if code == 200101 else "day").inc()


def webhook_delivered(outcome: str) -> None:
    """Count a webhook delivery attempt's outcome (delivered, failed, ...)."""
    WEBHOOK_DELIVERIES.labels(outcome).inc()


def watch_pool(engine, pool_size: int) -> None:
    """Follow a PostgreSQL engine's pool: connections checked out and open."""
    from sqlalchemy import event

    DB_POOL_SIZE.inc(pool_size)
    event.listen(engine, "checkout", lambda *_: DB_POOL_IN_USE.inc())
    event.listen(engine, "checkin", lambda *_: DB_POOL_IN_USE.dec())
    event.listen(engine, "connect", lambda *_: DB_POOL_OPEN.inc())
    event.listen(engine, "close", lambda *_: DB_POOL_OPEN.dec())
    event.listen(engine, "close_detached", lambda *_: DB_POOL_OPEN.dec())


def process_exited() -> None:
    """Drop this process's live gauges (the pool gauges) from the multiprocess folder."""
    if MULTIPROCESS:
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(os.getpid())


def git_revision() -> str:
    """The source's git revision, when it runs from a checkout (MODHUB_GIT_REVISION wins)."""
    if os.environ.get("MODHUB_GIT_REVISION"):
        return os.environ["MODHUB_GIT_REVISION"]
    root = Path(__file__).resolve().parent.parent
    try:
        out = subprocess.run(
            ["git", "-C", str(root), "rev-parse", "--short=12", "HEAD"],
            capture_output=True,
            text=True,
            timeout=2,
        )
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return out.stdout.strip() if out.returncode == 0 and out.stdout.strip() else "unknown"


class StateCollector:
    """Values read when scraped: build_info, and the webhook queue depth from the database."""

    def __init__(self, platform):
        self.platform = platform
        self.revision = git_revision()

    def collect(self):
        info = GaugeMetricFamily(
            "modhub_build_info", "Version and git revision", labels=["version", "revision"]
        )
        info.add_metric([__version__, self.revision], 1)
        yield info
        depth = self._queue_depth()
        if depth is not None:
            yield GaugeMetricFamily(
                "modhub_webhook_queue_depth", "Webhook deliveries waiting to be sent (all hosts)", value=depth
            )

    def _queue_depth(self) -> int | None:
        from sqlalchemy import func, select

        from models.webhooks.tables import DeliveryStatus, OutboxEvent, WebhookDelivery

        try:
            with self.platform.db.session() as session:
                pending = session.scalar(
                    select(func.count()).where(WebhookDelivery.status == DeliveryStatus.PENDING)
                )
                unrelayed = session.scalar(select(func.count()).where(OutboxEvent.relayed_at.is_(None)))
                return int(pending or 0) + int(unrelayed or 0)
        except Exception:  # noqa: BLE001 - a scrape must answer even when the database does not
            return None


def exposition(platform) -> bytes:
    """The metrics page: every process's values (multiprocess mode) or this process's."""
    registry = CollectorRegistry()
    if MULTIPROCESS:
        from prometheus_client import multiprocess

        multiprocess.MultiProcessCollector(registry)
    else:
        for collector in _ALL:
            registry.register(collector)
    registry.register(StateCollector(platform))
    return generate_latest(registry)
