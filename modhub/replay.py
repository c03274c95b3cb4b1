"""Replay-safe writes: a signed write is accepted once per (application, timestamp, signature).

Which requests are guarded, the nonce that names one, and how long it is remembered are decided
here; the remembering itself rides in the quota store's one round trip (modhub.quota: the Redis
script's `SET NX`, or `LocalNonces` in process), so the guard costs no round trip of its own.

Only writes are guarded: a T operation (the contract's `x-openapi-write-action`) sent with a
method that changes something. A read (GET, HEAD) stays replayable, as in AWS SigV4, whatever
its access level: a T read such as the points balance may be sent twice with the same headers.
"""

from __future__ import annotations

READ_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


def guarded(*, write_action: bool, method: str) -> bool:
    """Whether a request of this kind is accepted once only (a signed write)."""
    return write_action and method.upper() not in READ_METHODS


def nonce_of(headers: dict) -> str:
    """The nonce of a signed request: its timestamp and signature (unique per request)."""
    return f"{headers['x-timestamp']}:{headers['x-signature']}"


def nonce_ttl(timestamp_window_seconds: int) -> int:
    """How long a nonce is remembered: the signature window on both sides of now (a replay
    older than that fails the timestamp check instead)."""
    return 2 * timestamp_window_seconds + 1


class LocalNonces:
    """Nonces seen by this process (the embedded mode's replay memory); the caller holds the lock
    of the counters it is checked with, so a nonce is taken in the same step as the count."""

    def __init__(self):
        self.seen: dict[tuple[int, str], float] = {}

    def take(self, app_id: int, nonce: str, now: float, ttl: int) -> bool:
        """Remember the nonce; False when it is already remembered (a replay)."""
        if self.seen.get((app_id, nonce), 0) > now:
            return False
        self.seen[(app_id, nonce)] = now + ttl
        return True

    def forget_expired(self, now: float) -> None:
        """Drop the nonces whose time is over, so the map stays small."""
        self.seen = {k: v for k, v in self.seen.items() if v > now}
