"""The install-script key ring: the CURRENT key signs; PREVIOUS keys stay published (so clients
holding scripts signed before a rotation still verify them) until an operator retires them.

Before the first rotation the ring is the configured key (MODHUB_INSTALL_SIGNING_KEY). Without
one, the first call that needs the ring makes a key and stores it in the database, sealed with
the encryption key, under a lock (a PostgreSQL advisory lock held to the end of the caller's
transaction; on SQLite an immediate transaction): every process and host, and every concurrent
first call, publishes that one key. A key generated into the data folder by an older version
(install-signing-key.pem) is the one stored, so its key id stays. `rotate` keeps the current key
as PREVIOUS (public half only) and stores the new private key sealed the same way. Reading the
ring is one small query; a key's PEM is parsed once per process.
"""

from __future__ import annotations

import functools
import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from sqlalchemy import insert, select, text
from sqlalchemy.orm import Session

from models.downloads.tables import InstallSigningKey
from models.types import utcnow
from modhub.core.errors import ApiError
from modhub.core.script_signing import InstallSigner, SignerSettings, install_signer, legacy_key_file

if TYPE_CHECKING:
    from modhub.core.crypto import SecretBox

CURRENT, PREVIOUS, RETIRED = "CURRENT", "PREVIOUS", "RETIRED"


class KeySettings(SignerSettings, Protocol):
    """The settings the key ring is read and first made with (modhub.settings.Settings has them):
    the configured key, the encryption key that seals stored keys, and the data folder an older
    version generated its key into."""

    @property
    def encryption_key(self) -> str: ...
    @property
    def data_dir(self) -> Path: ...


def kid_of(public_pem: bytes) -> str:
    """Key id: the first 16 hex digits of the sha256 of the DER public key."""
    key = serialization.load_pem_public_key(public_pem)
    der = key.public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
    return hashlib.sha256(der).hexdigest()[:16]


@dataclass(frozen=True)
class KeyRing:
    """The signer of new signatures and every published public key, current first."""

    signer: InstallSigner
    kid: str
    published: list[tuple[str, str, bytes]]  # (kid, status, public PEM)


@functools.lru_cache(maxsize=8)
def _unsealed(sealed: str, encryption_key: str) -> InstallSigner:
    from modhub.core.crypto import SecretBox

    return InstallSigner.from_pem(SecretBox(encryption_key).open(sealed).encode(), checked=True)


def ring(session: Session, settings: KeySettings) -> KeyRing:
    """The key ring (one query)."""
    rows = list(
        session.scalars(
            select(InstallSigningKey)
            .where(InstallSigningKey.status != RETIRED)
            .order_by(InstallSigningKey.id.desc())
        )
    )
    current = next((r for r in rows if r.status == CURRENT), None)
    previous = [(r.kid, r.status, r.public_pem.encode()) for r in rows if r.status == PREVIOUS]
    if current is None and not settings.install_signing_key:
        current = _stored_current(session, settings)
    if current is None:
        signer = install_signer(settings)
        pem = signer.public_pem()
        kid = kid_of(pem)
        return KeyRing(signer, kid, [(kid, CURRENT, pem)] + [p for p in previous if p[0] != kid])
    signer = _unsealed(current.private_sealed, settings.encryption_key)
    return KeyRing(signer, current.kid, [(current.kid, CURRENT, current.public_pem.encode())] + previous)


LOCK_KEY = 0x6D6F646875620002  # pg_advisory_xact_lock key of the first install key


def stored_key_exists(session: Session) -> bool:
    """Whether the database holds a CURRENT install key."""
    return session.scalar(select(InstallSigningKey.id).where(InstallSigningKey.status == CURRENT)) is not None


def _stored_current(session: Session, settings: KeySettings) -> InstallSigningKey:
    """The CURRENT key of the database, made and stored once if there is none (under a lock)."""
    if session.get_bind().dialect.name == "sqlite":
        _store_first_sqlite(session, settings)
    else:
        session.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": LOCK_KEY})
        if not stored_key_exists(session):  # a new snapshot: sees a key another caller committed
            session.add(_first_row(settings))
            session.flush()
    return session.execute(select(InstallSigningKey).where(InstallSigningKey.status == CURRENT)).scalar_one()


def _store_first_sqlite(session: Session, settings: KeySettings) -> None:
    """SQLite: check and insert in one immediate transaction of a connection of its own (the
    writer lock is taken first, so a second process waits, then finds the key). The key is made
    before the lock is taken: an RSA key takes a second or more of CPU on a loaded machine, and
    the other first callers wait for the lock at most SQLite's busy time-out (5 s) before failing
    with "database is locked". Each of them makes one, and only the first stored is kept."""
    row = _first_row(settings)
    with session.get_bind().engine.connect() as conn:
        conn.exec_driver_sql("BEGIN IMMEDIATE")
        if conn.scalar(select(InstallSigningKey.id).where(InstallSigningKey.status == CURRENT)) is None:
            columns = ("kid", "status", "public_pem", "private_sealed", "created_at")
            conn.execute(insert(InstallSigningKey).values({c: getattr(row, c) for c in columns}))
        conn.commit()


def _first_row(settings: KeySettings) -> InstallSigningKey:
    from modhub.core.crypto import SecretBox

    legacy = legacy_key_file(settings.data_dir)
    private = legacy or _new_private_pem()
    public = InstallSigner.from_pem(private, checked=legacy is None).public_pem()  # a file's: checked
    return InstallSigningKey(
        kid=kid_of(public),
        status=CURRENT,
        public_pem=public.decode(),
        private_sealed=SecretBox(settings.encryption_key).seal(private.decode()),
        created_at=utcnow(),
    )


def _new_private_pem(key_size: int = 3072) -> bytes:
    key = rsa.generate_private_key(public_exponent=65537, key_size=key_size)
    return key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )


def bundle(key_ring: KeyRing) -> bytes:
    """The published keys as one PEM file, current first, each after a `# kid status` line
    (openssl reads the first key of such a file)."""
    return b"".join(f"# {kid} {status}\n".encode() + pem for kid, status, pem in key_ring.published)


def rotate(session: Session, *, settings: KeySettings, secrets: SecretBox, key_size: int = 3072) -> str:
    """Make a new CURRENT key; the old one becomes PREVIOUS (still published). Returns its kid."""
    old = ring(session, settings)
    for row in session.scalars(select(InstallSigningKey).where(InstallSigningKey.status == CURRENT)):
        row.status = PREVIOUS
    if not session.scalar(select(InstallSigningKey.id).where(InstallSigningKey.kid == old.kid)):
        session.add(InstallSigningKey(kid=old.kid, status=PREVIOUS, public_pem=old.published[0][2].decode()))
    key = rsa.generate_private_key(public_exponent=65537, key_size=key_size)
    private = key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    ).decode()
    public = key.public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    )
    kid = kid_of(public)
    session.add(
        InstallSigningKey(
            kid=kid,
            status=CURRENT,
            public_pem=public.decode(),
            private_sealed=secrets.seal(private),
            created_at=utcnow(),
        )
    )
    session.flush()
    return kid


def retire(session: Session, *, kid: str) -> None:
    """Stop publishing a PREVIOUS key (the CURRENT one cannot be retired: rotate first)."""
    row = session.scalar(select(InstallSigningKey).where(InstallSigningKey.kid == kid))
    if row is None or row.status == RETIRED:
        raise ApiError("RECORD_NOT_FOUND", f"no published install signing key {kid}")
    if row.status == CURRENT:
        raise ApiError("CONFLICT", f"key {kid} is the current key: rotate before retiring it")
    row.status, row.retired_at = RETIRED, utcnow()
    session.flush()
