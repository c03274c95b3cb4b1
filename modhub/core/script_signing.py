"""Install-script signatures: RSA-SHA256 (PKCS#1 v1.5), Base64, over the exact script bytes.

The private key comes from MODHUB_INSTALL_SIGNING_KEY (PEM), or is generated once and kept in
the database (models.downloads.keys). The public key is published in PEM so that clients verify
offline.
"""

from __future__ import annotations

import base64
import functools
import logging
from pathlib import Path
from typing import Protocol

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding, rsa

log = logging.getLogger(__name__)
KEY_FILE = "install-signing-key.pem"


class InstallSigner:
    """Signs install scripts with one RSA private key and publishes its public key."""

    def __init__(self, private_key: rsa.RSAPrivateKey):
        self._key = private_key

    @classmethod
    def from_pem(cls, pem: bytes, *, checked: bool = False) -> InstallSigner:
        """A signer from a PEM private key (PKCS#1 or PKCS#8, unencrypted). checked: a key this
        server made, or checked before it sealed it into the database (models.downloads.keys):
        RSA's consistency check (0.1 s of CPU for 3072 bits) is not run on it again."""
        key = serialization.load_pem_private_key(pem, password=None, unsafe_skip_rsa_key_validation=checked)
        if not isinstance(key, rsa.RSAPrivateKey):
            raise ValueError("the install signing key must be an RSA private key")
        return cls(key)

    def sign(self, data: bytes) -> str:
        """Base64 RSA-SHA256 PKCS#1 v1.5 signature of the bytes."""
        return base64.b64encode(self._key.sign(data, padding.PKCS1v15(), hashes.SHA256())).decode()

    def public_pem(self) -> bytes:
        """The public key as PEM (SubjectPublicKeyInfo)."""
        return self._key.public_key().public_bytes(
            serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
        )


def legacy_key_file(data_dir: Path) -> bytes | None:
    """The key an older version generated into the data folder, if any (it is then stored in
    the database once, so its key id stays the same)."""
    path = Path(data_dir) / KEY_FILE
    return path.read_bytes() if path.exists() else None


@functools.lru_cache(maxsize=16)
def _signer(pem_setting: str) -> InstallSigner:
    return InstallSigner.from_pem(pem_setting.encode())


class SignerSettings(Protocol):
    """The settings an install signer is named by (modhub.settings.Settings has them)."""

    @property
    def install_signing_key(self) -> str: ...


def install_signer(settings: SignerSettings) -> InstallSigner:
    """The signer of MODHUB_INSTALL_SIGNING_KEY (parsed once per key)."""
    if not settings.install_signing_key:
        raise ValueError("MODHUB_INSTALL_SIGNING_KEY is not set (the key is then kept in the database)")
    return _signer(settings.install_signing_key.replace("\\n", "\n"))
