"""Install-key rotation: the old public key stays published (and verifies old signatures with
openssl) until retired; new install-info signatures use the new key."""

from __future__ import annotations

import json

import pytest

from models.catalog.tables import ResourcePost
from models.downloads import keys
from modhub.core.crypto import SecretBox
from modhub.core.errors import ApiError
from tests.functional.files.test_signing import _openssl_verify
from tests.helpers.catalog import data

KEY = "/openapi/v2/meta/install-signing-key"


def _blocks(pem: bytes) -> list[tuple[str, bytes]]:
    """(header line, PEM block) of each key of a bundle."""
    out = []
    for part in pem.decode().split("# ")[1:]:
        head, block = part.split("\n", 1)
        out.append((head, block.encode()))
    return out


def test_rotation_keeps_the_old_key_until_retired(signed, client, db, cat, post, stored, settings, tmp_path):
    stored(post, b"x")
    with db.session() as s:
        s.get(ResourcePost, post).install_script = json.dumps({"steps": ["@0"]})
        s.commit()
    before = data(signed.get(f"/openapi/v2/mods/{post}/install-info"))
    first = client.get(KEY)
    [(head, old_pem)] = _blocks(first.content)
    assert head == f"{before['scriptKeyId']} CURRENT" == f"{first.headers['X-Install-Key-Id']} CURRENT"
    with db.session() as s, s.begin():
        new_kid = keys.rotate(s, settings=settings, secrets=SecretBox(settings.encryption_key), key_size=2048)
    after = data(signed.get(f"/openapi/v2/mods/{post}/install-info"))
    assert after["scriptKeyId"] == new_kid != before["scriptKeyId"]
    r = client.get(KEY)
    blocks = _blocks(r.content)
    assert [h for h, _ in blocks] == [f"{new_kid} CURRENT", f"{before['scriptKeyId']} PREVIOUS"]
    assert blocks[1][1] == old_pem and r.headers["X-Install-Key-Id"] == new_kid
    script = after["script"].encode()
    assert _openssl_verify(tmp_path, r.content, after["scriptSignature"], script).returncode == 0
    assert _openssl_verify(tmp_path, blocks[1][1], before["scriptSignature"], script).returncode == 0
    assert _openssl_verify(tmp_path, blocks[1][1], after["scriptSignature"], script).returncode != 0
    with db.session() as s, s.begin(), pytest.raises(ApiError) as current:
        keys.retire(s, kid=new_kid)
    assert current.value.entry.name == "CONFLICT"
    with db.session() as s, s.begin():
        keys.retire(s, kid=before["scriptKeyId"])
    assert [h for h, _ in _blocks(client.get(KEY).content)] == [f"{new_kid} CURRENT"]
    with db.session() as s, s.begin(), pytest.raises(ApiError):
        keys.retire(s, kid=before["scriptKeyId"])
