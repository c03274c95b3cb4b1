"""One rule per header the server reads (issue 31 item 1): the rules the header fuzz found."""

import ipaddress

from modhub.addresses import client_address
from modhub.edge import OCTETS, _media_typed

TRUSTED = (ipaddress.ip_network("10.0.0.0/8"),)


def test_a_hop_that_is_no_address_ends_the_walk_at_the_proxy_that_wrote_it():
    assert client_address("10.0.0.1", "\xb9", TRUSTED) == "10.0.0.1"
    assert client_address("10.0.0.1", "203.0.113.9, junk\x00, 10.0.0.2", TRUSTED) == "10.0.0.2"
    assert client_address("10.0.0.1", "203.0.113.9, 10.0.0.2", TRUSTED) == "203.0.113.9"
    assert client_address("198.51.100.1", "\xb9", TRUSTED) == "198.51.100.1"  # untrusted peer


def _content_type(value: bytes) -> bytes:
    scope = {"headers": [(b"accept", b"*/*"), (b"content-type", value)]}
    return dict(_media_typed(scope)["headers"])[b"content-type"]


def test_a_content_type_that_is_no_media_type_is_read_as_octets():
    for bad in (b"\xb9", b"*", b"\t", b"1\n", b"json", b"a/b/c", b"\xff\xfe/x"):
        assert _content_type(bad) == OCTETS, bad
    for good in (b"application/json", b"multipart/form-data; boundary=B", b"text/plain;charset=utf-8"):
        assert _content_type(good) == good
