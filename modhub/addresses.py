"""Where a request comes from: the client address behind trusted proxies and the IP allow-list."""

from __future__ import annotations

import ipaddress
from functools import lru_cache


@lru_cache(maxsize=4096)
def _pattern_matches(pattern: str, address: str) -> bool:
    pattern = pattern.strip()
    if "*" in pattern:
        want, got = pattern.split("."), address.split(".")
        return len(want) == len(got) == 4 and all(w in ("*", g) for w, g in zip(want, got, strict=True))
    try:
        if "/" in pattern:
            return ipaddress.ip_address(address) in ipaddress.ip_network(pattern, strict=False)
        return ipaddress.ip_address(pattern) == ipaddress.ip_address(address)
    except ValueError:
        return False


def ip_allowed(patterns: list[str] | tuple[str, ...], address: str) -> bool:
    """True when the list is empty or the address matches one entry.

    Entries are exact IPv4/IPv6 addresses (compared in canonical form), CIDR networks, or IPv4
    patterns with `*` for whole octets (`10.0.0.*`, `10.0.*.*`).
    """
    if not patterns:
        return True
    return any(_pattern_matches(p, address) for p in patterns)


def client_address(peer: str, forwarded_for: str | None, trusted: tuple) -> str:
    """The caller's address: X-Forwarded-For is believed only when the peer is a trusted proxy.

    Walking the chain from the right, trusted proxies are skipped and the first other address is
    the client; a chain made only of trusted proxies yields its leftmost entry. A hop that is not
    an IP address ends the walk at the trusted hop that wrote it: what comes back is always an
    address.
    """
    if not forwarded_for or not _is_trusted(peer, trusted):
        return peer
    hops = [h.strip() for h in forwarded_for.split(",") if h.strip()]
    nearest = peer
    for hop in reversed(hops):
        if not _is_address(hop):
            return nearest  # not an address: the hop that wrote it is the last one believed
        if not _is_trusted(hop, trusted):
            return hop
        nearest = hop
    return nearest


def _is_address(text: str) -> bool:
    try:
        ipaddress.ip_address(text)
    except ValueError:
        return False
    return True


def _is_trusted(address: str, trusted: tuple) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in net for net in trusted)
