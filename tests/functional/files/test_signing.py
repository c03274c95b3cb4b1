"""The install-script signing key: published anonymously, verifiable with openssl."""

from __future__ import annotations

import base64
import subprocess

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

from models.downloads import keys
from models.downloads.tables import InstallSigningKey
from modhub.core.crypto import SecretBox
from modhub.core.script_signing import KEY_FILE, InstallSigner, install_signer

SCRIPT = "# 安装 install\n@0 -> mods/\n@1 -> config/\r\n".encode()


def _openssl_verify(tmp_path, pem: bytes, signature_b64: str, data: bytes) -> subprocess.CompletedProcess:
    (tmp_path / "key.pem").write_bytes(pem)
    (tmp_path / "sig.bin").write_bytes(base64.b64decode(signature_b64))
    (tmp_path / "script.txt").write_bytes(data)
    return subprocess.run(
        [
            "openssl",
            "dgst",
            "-sha256",
            "-verify",
            str(tmp_path / "key.pem"),
            "-signature",
            str(tmp_path / "sig.bin"),
            str(tmp_path / "script.txt"),
        ],
        capture_output=True,
        text=True,
        timeout=30,
    )


def test_published_key_verifies_a_signature_with_openssl(client, settings, db, tmp_path):
    r = client.get("/openapi/v2/meta/install-signing-key")
    assert r.status_code == 200 and r.headers["Content-Type"].startswith("application/x-pem-file")
    assert r.content.split(b"\n", 1)[1].startswith(b"-----BEGIN PUBLIC KEY-----")
    assert r.content.startswith(f"# {r.headers['X-Install-Key-Id']} CURRENT\n".encode())
    with db.session() as session:
        signature = keys.ring(session, settings).signer.sign(SCRIPT)
    ok = _openssl_verify(tmp_path, r.content, signature, SCRIPT)
    assert ok.returncode == 0 and "Verified OK" in ok.stdout
    bad = _openssl_verify(tmp_path, r.content, signature, SCRIPT.replace(b"\r\n", b"\n"))
    assert bad.returncode != 0


def test_generated_key_lives_in_the_database_sealed(settings, db):
    """No key setting: the first ring stores one key, sealed with the encryption key; later
    rings (any process) read that key; nothing is written to the data folder."""
    with db.session() as session:
        first = keys.ring(session, settings)
        row = session.query(InstallSigningKey).filter_by(status="CURRENT").one()
        assert b"PRIVATE KEY" not in row.private_sealed.encode()
        opened = SecretBox(settings.encryption_key).open(row.private_sealed)
        assert opened.startswith("-----BEGIN PRIVATE KEY-----")
        again = keys.ring(session, settings)
    assert again.kid == first.kid == row.kid
    assert not (settings.data_dir / KEY_FILE).exists()


def test_a_key_file_of_an_older_version_keeps_its_key_id(settings, db):
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    pem = key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    (settings.data_dir / KEY_FILE).write_bytes(pem)
    public = key.public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    )
    with db.session() as session:
        assert keys.ring(session, settings).kid == keys.kid_of(public)


def test_key_from_the_pem_setting(settings, tmp_path):
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    pem = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.TraditionalOpenSSL,
        serialization.NoEncryption(),
    ).decode()
    signer = install_signer(settings.replace(install_signing_key=pem))
    assert signer.public_pem() == key.public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    )
    assert not (settings.data_dir / KEY_FILE).exists()
    ok = _openssl_verify(tmp_path, signer.public_pem(), signer.sign(SCRIPT), SCRIPT)
    assert ok.returncode == 0


def test_a_key_given_from_outside_is_checked_and_a_sealed_one_is_not_checked_again(settings, db):
    """RSA's consistency check (0.1 s of CPU for 3072 bits) runs on a key file or setting; a key
    the server made or checked, then sealed into the database, is read without it."""
    good = rsa.generate_private_key(public_exponent=65537, key_size=1024).private_numbers()
    broken = rsa.RSAPrivateNumbers(  # d one off: p * q is still n, the key is inconsistent
        good.p, good.q, good.d + 2, good.dmp1, good.dmq1, good.iqmp, good.public_numbers
    ).private_key(unsafe_skip_rsa_key_validation=True)
    pem = broken.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    with pytest.raises(ValueError):
        InstallSigner.from_pem(pem)
    with pytest.raises(ValueError):
        install_signer(settings.replace(install_signing_key=pem.decode()))
    assert InstallSigner.from_pem(pem, checked=True).public_pem()  # the check alone was skipped
    with db.session() as session:
        made = keys.ring(session, settings)  # made here, sealed, read back unchecked
        assert keys.ring(session, settings).kid == made.kid
    ok = _openssl_verify(settings.data_dir, made.signer.public_pem(), made.signer.sign(SCRIPT), SCRIPT)
    assert ok.returncode == 0
