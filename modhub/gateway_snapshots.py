"""What the gateway reads from the database and keeps in this process for a few seconds: application
snapshots by API key and proxy users known to be live."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass

from models.identity.service import get_app_by_key
from models.identity.tables import AppStatus


@dataclass(frozen=True)
class AppInfo:
    """A read-only snapshot of an application, safe to share between threads."""

    id: int
    secret: str
    status: AppStatus
    proxy_permission: bool
    ip_allow: tuple[str, ...]
    per_minute: int
    per_day: int


class Snapshots:
    """What the gateway read from the database, kept in this process for a few seconds
    (MODHUB_APP_CACHE_SECONDS; 0 keeps nothing): a change is seen by every process within
    that time. The map starts over when it grows past `limit` entries."""

    def __init__(self, platform, limit: int):
        self.platform = platform
        self.limit = limit
        self.lock = threading.Lock()
        self.cache: dict = {}

    def fresh(self, key) -> tuple[float, object] | None:
        """(expiry, value) of a snapshot still within its time, else None."""
        hit = self.cache.get(key)
        return hit if hit and hit[0] > time.monotonic() else None

    def keep(self, key, value) -> None:
        """Keep a value just read."""
        ttl = self.platform.settings.app_cache_seconds
        if ttl > 0:
            with self.lock:
                if len(self.cache) > self.limit:
                    self.cache.clear()
                self.cache[key] = (time.monotonic() + ttl, value)


class AppDirectory:
    """Looks applications up by API key, keeping snapshots for a few seconds.

    The cache spares the database one query per request; a change to an application (disable,
    rotate-secret, allow-list) is seen by every process within `ttl` seconds.
    """

    def __init__(self, platform):
        self.platform = platform
        self.snapshots = Snapshots(platform, limit=10_000)

    def get(self, api_key: str) -> AppInfo | None:
        """The application of this key, or None."""
        hit = self.snapshots.fresh(api_key)
        if hit:
            return hit[1]
        info = self._load(api_key)
        self.snapshots.keep(api_key, info)
        return info

    def cached(self, api_key: str) -> bool:
        """Whether a fresh snapshot (or a fresh "no such key") is at hand, so get() reads nothing."""
        return self.snapshots.fresh(api_key) is not None

    def _load(self, api_key: str) -> AppInfo | None:
        with self.platform.db.session() as session:
            app = get_app_by_key(session, api_key=api_key)
            if app is None:
                return None
            s = self.platform.settings
            return AppInfo(
                app.id,
                self.platform.secrets.open(app.secret_encrypted),
                app.status,
                app.has_proxy_permission,
                tuple(app.ip_allow or ()),
                app.per_minute or s.default_per_minute,
                app.per_day or s.default_per_day,
            )


class UserDirectory:
    """Proxy users known to be live (positive answers only), as Snapshots.

    A P request of a cached application whose `X-Proxy-User-Id` is here needs no database in
    the gateway; a user deleted since is refused by every process within the snapshot time, as
    an application change is. Unknown ids are always read: a user registered a moment ago is
    accepted at once.
    """

    def __init__(self, platform):
        self.snapshots = Snapshots(platform, limit=100_000)

    def live(self, user_id: int) -> bool:
        """Whether the user was seen live within the snapshot time."""
        return self.snapshots.fresh(user_id) is not None

    def remember(self, user_id: int) -> None:
        """Note a user just read live."""
        self.snapshots.keep(user_id, True)
