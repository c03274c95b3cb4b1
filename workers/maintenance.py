"""The maintenance jobs: the storage sweep, the identity purge, the download-count flush and the
webhook-table retention. `modhub maintenance run` runs them once (cron, the systemd timer);
every `modhub worker` runs them each MODHUB_MAINTENANCE_INTERVAL_SECONDS, one worker at a time
across hosts (a Redis lock that outlives the run, so the interval holds whoever takes it)."""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Callable

log = logging.getLogger(__name__)

LOCK_KEY = "modhub:maintenance:lock"
SWEEP_GRACE = dt.timedelta(minutes=60)  # unreferenced lobby content kept after its last use
PURGE_GRACE = dt.timedelta(hours=24)  # expired codes and tickets kept for support look-ups


def _storage_sweep(platform) -> dict:
    from models.lobby.sweep import sweep

    result = sweep(platform.db, platform.storage, now=platform.clock(), grace=SWEEP_GRACE)
    return {
        "reservations": result.reservations,
        "contents": result.contents,
        "spool_files": result.spool_files,
    }


def _identity_purge(platform) -> dict:
    from models.identity import oauth

    with platform.db.session() as session, session.begin():
        return oauth.purge_expired(session, now=platform.clock(), grace=PURGE_GRACE)


def _downloads_flush(platform) -> dict:
    from models.downloads.counting import flush

    return {"downloads": flush(platform.db, platform.download_counter)}


def _webhook_retention(platform) -> dict:
    from models.webhooks import service as webhooks

    days = platform.settings.webhook_retention_days
    if not days:
        return {"kept": "forever (MODHUB_WEBHOOK_RETENTION_DAYS=0)"}
    with platform.db.session() as session, session.begin():
        return webhooks.purge_finished(session, before=platform.clock() - dt.timedelta(days=days))


JOBS: dict[str, Callable[[object], dict]] = {
    "storage-sweep": _storage_sweep,
    "identity-purge": _identity_purge,
    "downloads-flush": _downloads_flush,
    "webhook-retention": _webhook_retention,
}


def run(platform, *, only: tuple[str, ...] = (), progress: Callable[[str], None] | None = None) -> dict:
    """Run the jobs (all, or those named in `only`) in order; returns each job's counts. A job
    that fails is reported as {"error": ...} and the others still run."""
    results: dict[str, dict] = {}
    for name in only or tuple(JOBS):
        if progress:
            progress(f"{name}...")
        try:
            results[name] = JOBS[name](platform)
        except Exception as exc:  # one broken job must not starve the others
            log.exception("maintenance job %s failed", name)
            results[name] = {"error": f"{type(exc).__name__}: {exc}"}
    return results


def run_if_due(platform, redis_client, *, interval: float) -> dict | None:
    """Run the jobs when no worker ran them in the last `interval` seconds (a Redis key set with
    NX and an expiry of `interval` is the turn); returns the results, or None when not our turn."""
    if not interval or not redis_client.set(LOCK_KEY, "1", nx=True, ex=max(int(interval), 1)):
        return None
    results = run(platform)
    log.info("maintenance: %s", results)
    return results
