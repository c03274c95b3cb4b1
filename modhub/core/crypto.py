"""Encryption at rest of API secret keys (Fernet) and generation of keys and secrets."""

from __future__ import annotations

import secrets
import string

from cryptography.fernet import Fernet

_ALNUM = string.ascii_letters + string.digits


class SecretBox:
    """Encrypts and decrypts application secret keys with the configured Fernet key."""

    def __init__(self, key: str):
        self.fernet = Fernet(key.encode())

    def seal(self, plaintext: str) -> str:
        """Encrypt a secret for storage."""
        return self.fernet.encrypt(plaintext.encode()).decode()

    def open(self, token: str) -> str:
        """Decrypt a stored secret."""
        return self.fernet.decrypt(token.encode()).decode()


def new_api_key() -> str:
    """A 32-character alphanumeric API key."""
    return "".join(secrets.choice(_ALNUM) for _ in range(32))


def new_secret_key() -> str:
    """A 43-character URL-safe secret key (32 random bytes)."""
    return secrets.token_urlsafe(32)
