"""Downloads streamed to disk with sha1/sha256/sha512 checks, resume with Range, temporary links,
and the install script's signature against the published keys."""

from __future__ import annotations

import base64
import hashlib
import json

import httpx
import pytest
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding, rsa
from modhub_client import HashMismatch, KeySet, SignatureInvalid, expected_hashes
from modhub_client.downloads import part_path


@pytest.fixture
def uploaded(catalogue):
    return catalogue.uploaded()[0]


def test_download_checks_every_published_digest(client, uploaded, tmp_path):
    post_id, file = uploaded
    progress: list[tuple[int, int | None]] = []
    done = client.download(
        post_id,
        file["fileInfoId"],
        tmp_path / "mod.jar",
        expected=expected_hashes(file),
        progress=lambda got, total: progress.append((got, total)),
    )
    data = (tmp_path / "mod.jar").read_bytes()
    assert done.size == len(data) == file["fileSize"] and progress[-1] == (len(data), len(data))
    for name in ("sha1", "sha256", "sha512"):
        assert done.hashes[name] == file["hashes"][name] == hashlib.new(name, data).hexdigest()
    assert not part_path(tmp_path / "mod.jar").exists()


def test_a_tampered_download_fails_and_leaves_nothing(client, uploaded, tmp_path):
    post_id, file = uploaded
    wrong = {**expected_hashes(file), "sha512": "0" * 128}
    with pytest.raises(HashMismatch) as caught:
        client.download(post_id, file["fileInfoId"], tmp_path / "mod.jar", expected=wrong)
    assert caught.value.algorithm == "sha512"
    assert not (tmp_path / "mod.jar").exists() and not part_path(tmp_path / "mod.jar").exists()


def test_download_resumes_with_range(client, uploaded, tmp_path):
    post_id, file = uploaded
    whole = tmp_path / "whole.jar"
    client.download(post_id, file["fileInfoId"], whole)
    half = file["fileSize"] // 2
    part_path(tmp_path / "mod.jar").write_bytes(whole.read_bytes()[:half])
    seen: list[httpx.Request] = []
    client.http.event_hooks["request"].append(seen.append)
    done = client.download(post_id, file["fileInfoId"], tmp_path / "mod.jar", expected=expected_hashes(file))
    assert done.resumed_from == half and seen[-1].headers["Range"] == f"bytes={half}-"
    assert (tmp_path / "mod.jar").read_bytes() == whole.read_bytes()


def test_temporary_link_flow(client, uploaded, tmp_path):
    post_id, file = uploaded
    auth = client.download_auth(post_id, file["fileInfoId"])
    link = auth["downloadInfos"][0]
    done = client.download_link(link["url"], tmp_path / "mod.jar", expected=expected_hashes(link))
    assert done.hashes["sha256"] == file["hashes"]["sha256"]


def _scripted(client, catalogue):
    for post_id in catalogue.files:
        info = client.install_info(post_id, verify=False)
        if info.get("script"):
            return post_id, info
    raise LookupError("no install script in the demo catalogue")


def test_install_info_script_signature_is_verified_with_the_published_key(client, catalogue, server):
    post_id, _ = _scripted(client, catalogue)
    info = client.install_info(post_id)  # verify=True: raises when the signature does not hold
    published = httpx.get(server.base_url + "/openapi/v2/meta/install-signing-key")
    assert info["scriptKeyId"] == published.headers["X-Install-Key-Id"] == client.install_keys().current.kid
    assert client.verify_script(info) == info["scriptKeyId"]
    tampered = {**info, "script": info["script"].replace("copy", "delete", 1)}
    with pytest.raises(SignatureInvalid):
        client.verify_script(tampered)


def test_a_rotated_key_is_fetched_again(client, catalogue):
    post_id, info = _scripted(client, catalogue)
    stranger = rsa.generate_private_key(public_exponent=65537, key_size=2048).public_key()
    pem = stranger.public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
    client._keys = KeySet.parse(b"# 0000000000000000 CURRENT\n" + pem)  # a key set from before a rotation
    assert client.verify_script(info) == info["scriptKeyId"]  # unknown kid: the set is read again
    assert info["scriptKeyId"] in client.install_keys().keys


def test_key_set_reads_a_pem_bundle_and_a_jwks():
    old, new = (rsa.generate_private_key(public_exponent=65537, key_size=2048) for _ in range(2))
    script = json.dumps({"steps": [{"action": "copy", "from": "@0", "to": "mods/"}]})
    signature = base64.b64encode(old.sign(script.encode(), padding.PKCS1v15(), hashes.SHA256())).decode()

    def pem(key):
        return (
            key.public_key()
            .public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
            .decode()
        )

    def b64(n: int) -> str:
        return base64.urlsafe_b64encode(n.to_bytes((n.bit_length() + 7) // 8, "big")).rstrip(b"=").decode()

    bundle = KeySet.parse(f"# newkid CURRENT\n{pem(new)}# oldkid PREVIOUS\n{pem(old)}")
    assert list(bundle.keys) == ["newkid", "oldkid"] and bundle.current.kid == "newkid"
    assert bundle.verify(script, signature, "oldkid").kid == "oldkid"
    with pytest.raises(SignatureInvalid):
        bundle.verify(script, signature, "newkid")
    numbers = old.public_key().public_numbers()
    jwks = KeySet.parse(
        json.dumps(
            {
                "keys": [
                    {
                        "kty": "RSA",
                        "kid": "oldkid",
                        "use": "sig",
                        "alg": "RS256",
                        "n": b64(numbers.n),
                        "e": b64(numbers.e),
                    }
                ]
            }
        )
    )
    assert jwks.verify(script, signature).kid == "oldkid"
    assert (
        KeySet.parse(pem(old)).current.kid
        == hashlib.sha256(
            old.public_key().public_bytes(
                serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo
            )
        ).hexdigest()[:16]
    )
