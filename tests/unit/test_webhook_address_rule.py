"""The webhook callback address rule: every IANA special-purpose range is refused (table-driven)."""

from __future__ import annotations

import pytest

from modhub.core.webhook_signing import CallbackRefused, check_callback

REFUSED = [
    ("100.100.100.200", "shared address space 100.64/10 (cloud metadata)"),
    ("100.64.0.1", "shared address space, first"),
    ("100.127.255.254", "shared address space, last"),
    ("198.18.0.1", "benchmarking 198.18/15"),
    ("198.19.255.254", "benchmarking, last"),
    ("192.0.2.10", "documentation TEST-NET-1"),
    ("198.51.100.10", "documentation TEST-NET-2"),
    ("203.0.113.10", "documentation TEST-NET-3"),
    ("192.0.0.8", "IETF protocol assignments"),
    ("240.0.0.1", "reserved 240/4"),
    ("255.255.255.255", "limited broadcast"),
    ("0.0.0.0", "this host"),
    ("224.0.0.1", "multicast"),
    ("10.1.2.3", "private 10/8"),
    ("172.16.0.1", "private 172.16/12"),
    ("192.168.0.1", "private 192.168/16"),
    ("127.0.0.1", "loopback"),
    ("169.254.169.254", "link-local (metadata)"),
    ("::ffff:100.100.100.200", "IPv4-mapped shared space"),
    ("::ffff:127.0.0.1", "IPv4-mapped loopback"),
    ("::ffff:93.184.216.34", "IPv4-mapped, even of a global address"),
    ("2002:7f00:1::1", "6to4 embedding 127.0.0.1"),
    ("2002:5db8:d822::1", "6to4 embedding a global address"),
    ("2001:0:4136:e378:8000:63bf:3fff:fdd2", "Teredo"),
    ("64:ff9b::7f00:1", "NAT64 embedding 127.0.0.1"),
    ("64:ff9b::a00:1", "NAT64 embedding 10.0.0.1"),
    ("64:ff9b:1::a00:1", "local-use NAT64"),
    ("2001:db8::1", "IPv6 documentation"),
    ("3fff::1", "IPv6 documentation 3fff::/20"),
    ("100::1", "discard-only"),
    ("2001:2::1", "IPv6 benchmarking"),
    ("fc00::1", "unique local"),
    ("fe80::1", "link-local"),
    ("fe80::1%eth0", "link-local with a zone"),
    ("ff02::1", "multicast"),
    ("::1", "loopback"),
    ("::", "unspecified"),
    ("::7f00:1", "IPv4-compatible (deprecated)"),
]
ACCEPTED = ["93.184.216.34", "8.8.8.8", "1.1.1.1", "2606:4700:4700::1111", "2a00:1450:4001:80b::200e"]


def _resolver(address):
    return lambda host, port: [address]


@pytest.mark.parametrize("address,why", REFUSED, ids=[a for a, _ in REFUSED])
def test_special_purpose_addresses_are_refused(address, why):
    with pytest.raises(CallbackRefused):
        check_callback("https://hooks.example.com/x", allow_private=False, resolver=_resolver(address))


@pytest.mark.parametrize("address", ACCEPTED)
def test_global_unicast_addresses_are_accepted(address):
    assert check_callback(
        "https://hooks.example.com/x", allow_private=False, resolver=_resolver(address)
    ) == [address]
