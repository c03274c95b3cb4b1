"""The published install keys as a JSON Web Key Set (RFC 7517), for JOSE libraries."""

from __future__ import annotations

import base64
from typing import TypedDict

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

from models.downloads.keys import KeyRing


class Jwk(TypedDict):
    """A JSON Web Key of an RSA signing key (RFC 7517, RFC 7518 section 6.3)."""

    kid: str
    kty: str
    n: str
    e: str
    use: str
    alg: str


class JwkSet(TypedDict):
    """A JSON Web Key Set."""

    keys: list[Jwk]


def _b64url(number: int) -> str:
    """Base64url of an unsigned big-endian integer, no padding (RFC 7518 section 6.3.1)."""
    raw = number.to_bytes(max(1, (number.bit_length() + 7) // 8), "big")
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def jwk(kid: str, public_pem: bytes) -> Jwk:
    """The JWK of one RSA public key: kid, kty, n, e, use (sig) and alg (RS256)."""
    key = serialization.load_pem_public_key(public_pem)
    if not isinstance(key, rsa.RSAPublicKey):
        raise ValueError(f"install key {kid} is not an RSA key")
    numbers = key.public_numbers()
    return {
        "kid": kid,
        "kty": "RSA",
        "n": _b64url(numbers.n),
        "e": _b64url(numbers.e),
        "use": "sig",
        "alg": "RS256",
    }


def key_set(key_ring: KeyRing) -> JwkSet:
    """The JWK Set of the published keys, the current key first."""
    return {"keys": [jwk(kid, pem) for kid, _, pem in key_ring.published]}
