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


JWKS = "/openapi/v2/meta/install-signing-jwks"


def _verifies(key, signature: str, script: bytes) -> bool:
    import base64

    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import padding

    try:
        key.verify(base64.b64decode(signature), script, padding.PKCS1v15(), hashes.SHA256())
    except InvalidSignature:
        return False
    return True


def test_the_keys_are_published_as_a_json_web_key_set(signed, client, db, post, stored, settings):
    from joserfc.jwk import KeySet

    stored(post, b"x")
    with db.session() as s:
        s.get(ResourcePost, post).install_script = json.dumps({"steps": []})
        s.commit()
    before = data(signed.get(f"/openapi/v2/mods/{post}/install-info"))
    with db.session() as s, s.begin():
        new_kid = keys.rotate(s, settings=settings, secrets=SecretBox(settings.encryption_key), key_size=2048)
    after = data(signed.get(f"/openapi/v2/mods/{post}/install-info"))
    r = client.get(JWKS)  # anonymous: no signature
    assert r.status_code == 200 and r.headers["Content-Type"].startswith("application/json")
    document = r.json()
    assert [k["kid"] for k in document["keys"]] == [new_kid, before["scriptKeyId"]]  # current first
    for jwk in document["keys"]:
        assert set(jwk) == {"kid", "kty", "n", "e", "use", "alg"}
        assert (jwk["kty"], jwk["use"], jwk["alg"]) == ("RSA", "sig", "RS256")
        assert "=" not in jwk["n"] + jwk["e"]  # base64url without padding (RFC 7518)
    key_set = KeySet.import_key_set(document)  # a JOSE library reads it as it is
    script = after["script"].encode()
    assert _verifies(key_set.get_by_kid(new_kid).public_key, after["scriptSignature"], script)
    assert _verifies(key_set.get_by_kid(before["scriptKeyId"]).public_key, before["scriptSignature"], script)
    assert not _verifies(
        key_set.get_by_kid(before["scriptKeyId"]).public_key, after["scriptSignature"], script
    )
    # the same keys as the PEM bundle
    pems = [block for _, block in _blocks(client.get(KEY).content)]
    assert [key_set.get_by_kid(k["kid"]).as_pem(private=False) for k in document["keys"]] == pems
