"""The signature, the IP allow-list and the client address."""

import ipaddress

import pytest

from modhub import addresses
from modhub import request_signing as signature
from tests.support import sign


def test_sign_matches_vector_computed_with_openssl():
    # printf 'GET\n/openapi/v2/mods/123\n1700000000000' \
    #   | openssl dgst -sha256 -hmac 'test-secret-key' -binary | base64
    assert (
        signature.sign("test-secret-key", "GET", "/openapi/v2/mods/123", "1700000000000")
        == "1kglO+FjguHl9a3nDvTl8jRPOIvs/AvbDif0uNyZcC0="
    )


def test_sign_second_vector_with_special_characters_in_secret():
    assert (
        signature.sign("S3cr3t/with+chars", "post", "/openapi/v2/oauth/token", "1732147200123")
        == "qM+I0x8+gNS15v3AGOk+1d6gd9WaNS8zlhVJu3ZnWv4="
    )


def test_string_to_sign_has_no_trailing_line_feed():
    assert signature.string_to_sign("get", "/p", "1") == "GET\n/p\n1"


def test_test_signer_agrees_with_server_signer():
    assert sign("k", "GET", "/x", "1700000000000") == signature.sign("k", "GET", "/x", "1700000000000")


def test_signature_matches_rejects_other_path_and_secret():
    good = signature.sign("s", "GET", "/a", "1")
    assert signature.signature_matches("s", "GET", "/a", "1", good)
    assert not signature.signature_matches("s", "GET", "/b", "1", good)
    assert not signature.signature_matches("t", "GET", "/a", "1", good)
    assert not signature.signature_matches("s", "GET", "/a", "1", "")


@pytest.mark.parametrize(
    "patterns,address,allowed",
    [
        ([], "1.2.3.4", True),
        (["1.2.3.4"], "1.2.3.4", True),
        (["1.2.3.4"], "1.2.3.5", False),
        (["10.0.0.*"], "10.0.0.17", True),
        (["10.0.0.*"], "10.0.1.17", False),
        (["10.*.*.*"], "10.200.3.4", True),
        (["192.168.0.0/16"], "192.168.77.1", True),
        (["2001:db8::1"], "2001:0db8:0000::0001", True),
        (["2001:db8::1"], "2001:db8::2", False),
        (["10.0.0.*"], "2001:db8::1", False),
        (["not-an-ip"], "1.2.3.4", False),
    ],
)
def test_ip_allowed(patterns, address, allowed):
    assert addresses.ip_allowed(patterns, address) is allowed


TRUSTED = (ipaddress.ip_network("127.0.0.1/32"), ipaddress.ip_network("10.1.0.0/16"))


def test_forwarded_for_ignored_from_untrusted_peer():
    assert addresses.client_address("8.8.8.8", "1.1.1.1", TRUSTED) == "8.8.8.8"


def test_forwarded_for_used_from_trusted_peer_skipping_trusted_hops():
    assert addresses.client_address("127.0.0.1", "6.6.6.6, 5.5.5.5, 10.1.2.3", TRUSTED) == "5.5.5.5"


def test_forwarded_for_without_header_is_peer():
    assert addresses.client_address("127.0.0.1", None, TRUSTED) == "127.0.0.1"
