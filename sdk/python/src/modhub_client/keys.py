"""The install-script signing keys: parse the published key set and verify script signatures.

The server publishes its keys at GET /openapi/v2/meta/install-signing-key as a PEM bundle whose
blocks are preceded by `# <kid> <status>` lines; a JSON Web Key Set (`{"keys": [{kid, kty, n, e,
...}]}`) is read as well. A key id is the first 16 hex digits of the sha256 of the DER
SubjectPublicKeyInfo; it is computed when the bundle names none.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import re
from dataclasses import dataclass

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding, rsa

from modhub_client.errors import SignatureInvalid

_PEM = re.compile(r"-----BEGIN PUBLIC KEY-----.*?-----END PUBLIC KEY-----", re.S)
_COMMENT = re.compile(r"^#\s*([0-9A-Za-z_-]+)(?:\s+(\S+))?\s*$")


@dataclass(frozen=True)
class InstallKey:
    """One published RSA public key with its id and status (CURRENT, PREVIOUS or unknown)."""

    kid: str
    key: rsa.RSAPublicKey
    status: str | None = None


def key_id(key: rsa.RSAPublicKey) -> str:
    """The server's key id: first 16 hex digits of sha256(DER SubjectPublicKeyInfo)."""
    der = key.public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
    return hashlib.sha256(der).hexdigest()[:16]


def _b64url_int(text: str) -> int:
    return int.from_bytes(base64.urlsafe_b64decode(text + "=" * (-len(text) % 4)), "big")


class KeySet:
    """Published install keys by key id; verifies a script's signature with the key it names."""

    def __init__(self, keys: list[InstallKey]):
        self.keys = {k.kid: k for k in keys}

    @classmethod
    def parse(cls, body: bytes | str) -> KeySet:
        """A key set from a PEM bundle (with or without `# kid status` lines) or a JWKS document."""
        text = body.decode("utf-8") if isinstance(body, bytes) else body
        if text.lstrip().startswith("{"):
            return cls.from_jwks(json.loads(text))
        return cls.from_pem_bundle(text)

    @classmethod
    def from_pem_bundle(cls, text: str) -> KeySet:
        """Keys of a PEM bundle; a `# kid status` line names the block after it."""
        keys: list[InstallKey] = []
        pending: tuple[str, str | None] | None = None
        position = 0
        for match in _PEM.finditer(text):
            for line in text[position : match.start()].splitlines():
                comment = _COMMENT.match(line.strip())
                if comment:
                    pending = (comment.group(1), comment.group(2))
            position = match.end()
            loaded = serialization.load_pem_public_key(match.group(0).encode("ascii"))
            if not isinstance(loaded, rsa.RSAPublicKey):
                continue  # only RSA keys sign install scripts
            computed = key_id(loaded)
            status = pending[1] if pending else None
            keys.append(InstallKey(pending[0] if pending else computed, loaded, status))
            pending = None
        return cls(keys)

    @classmethod
    def from_jwks(cls, document: dict[str, object]) -> KeySet:
        """RSA keys of a JSON Web Key Set (kty RSA, n and e in base64url)."""
        keys: list[InstallKey] = []
        entries = document.get("keys")
        for jwk in entries if isinstance(entries, list) else []:
            if not isinstance(jwk, dict) or jwk.get("kty") != "RSA":
                continue
            public = rsa.RSAPublicNumbers(_b64url_int(str(jwk["e"])), _b64url_int(str(jwk["n"]))).public_key()
            kid = str(jwk.get("kid") or key_id(public))
            status = jwk.get("status")
            keys.append(InstallKey(kid, public, str(status) if status else None))
        return cls(keys)

    @property
    def current(self) -> InstallKey | None:
        """The key marked CURRENT, else the first one."""
        for k in self.keys.values():
            if k.status == "CURRENT":
                return k
        return next(iter(self.keys.values()), None)

    def verify(self, script: str | bytes, signature: str, kid: str | None = None) -> InstallKey:
        """Check an RSA-SHA256 (PKCS#1 v1.5) Base64 signature over the script's exact UTF-8 bytes.

        With a kid only that key is tried (SignatureInvalid when the set does not hold it: fetch the
        set again, it may have rotated); without one, every published key. Returns the key used.
        """
        data = script.encode("utf-8") if isinstance(script, str) else script
        try:
            raw = base64.b64decode(signature, validate=True)
        except (binascii.Error, ValueError) as exc:
            raise SignatureInvalid("scriptSignature is not Base64") from exc
        if kid is not None and kid not in self.keys:
            raise SignatureInvalid(f"key {kid} is not in the published key set")
        candidates = [self.keys[kid]] if kid is not None else list(self.keys.values())
        for candidate in candidates:
            try:
                candidate.key.verify(raw, data, padding.PKCS1v15(), hashes.SHA256())
                return candidate
            except InvalidSignature:
                continue
        raise SignatureInvalid(f"the script's signature does not verify with key {kid or 'any'}")
