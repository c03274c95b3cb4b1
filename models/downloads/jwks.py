"""The published install keys as a JSON Web Key Set (RFC 7517), for JOSE libraries."""

from __future__ import annotations

import base64

from cryptography.hazmat.primitives import serialization

from models.downloads.keys import KeyRing


def _b64url(number: int) -> str:
    """Base64url of an unsigned big-endian integer, no padding (RFC 7518 section 6.3.1)."""
    raw = number.to_bytes(max(1, (number.bit_length() + 7) // 8), "big")
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def jwk(kid: str, public_pem: bytes) -> dict:
    """The JWK of one RSA public key: kid, kty, n, e, use (sig) and alg (RS256)."""
    numbers = serialization.load_pem_public_key(public_pem).public_numbers()
    return {
        "kid": kid,
        "kty": "RSA",
        "n": _b64url(numbers.n),
        "e": _b64url(numbers.e),
        "use": "sig",
        "alg": "RS256",
    }


def key_set(key_ring: KeyRing) -> dict:
    """The JWK Set of the published keys, the current key first."""
    return {"keys": [jwk(kid, pem) for kid, _, pem in key_ring.published]}
