"""Install-script signatures: RSA-SHA256 (PKCS#1 v1.5), Base64, over the exact script bytes.

The private key comes from MODHUB_INSTALL_SIGNING_KEY (PEM) in production; the embedded mode
generates one once into the data folder (install-signing-key.pem, mode 0600). The public key is
published in PEM so that clients verify offline.
"""

from __future__ import annotations

import base64
import functools
import logging
import os
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
    def from_pem(cls, pem: bytes) -> InstallSigner:
        """A signer from a PEM private key (PKCS#1 or PKCS#8, unencrypted)."""
        key = serialization.load_pem_private_key(pem, password=None)
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


def _generated_pem(data_dir: Path) -> bytes:
    path = data_dir / KEY_FILE
    if path.exists():
        return path.read_bytes()
    data_dir.mkdir(parents=True, exist_ok=True)
    key = rsa.generate_private_key(public_exponent=65537, key_size=3072)
    pem = key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as fh:
        fh.write(pem)
    log.warning(
        "generated a new install signing key in %s (embedded mode); set "
        "MODHUB_INSTALL_SIGNING_KEY in production",
        path,
    )
    return pem


@functools.lru_cache(maxsize=16)
def _signer(pem_setting: str, data_dir: str) -> InstallSigner:
    pem = pem_setting.encode() if pem_setting else _generated_pem(Path(data_dir))
    return InstallSigner.from_pem(pem)


class SignerSettings(Protocol):
    """The settings an install signer is named by (modhub.settings.Settings has them)."""

    @property
    def install_signing_key(self) -> str: ...
    @property
    def data_dir(self) -> Path: ...


def install_signer(settings: SignerSettings) -> InstallSigner:
    """The signer named by the settings (loaded, or generated, once per key and data folder)."""
    return _signer(settings.install_signing_key.replace("\\n", "\n"), str(settings.data_dir))
