"""modhub-get end to end against the live server: install with dependencies, verify (and a tampered
file failing it), update through files/updates, list, remove, and the refusals' exit codes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from modhub_client import ProxyUser, expected_hashes
from modhub_client.get import LOCK, main


@pytest.fixture
def run(server, monkeypatch, capsys):
    """modhub-get in this process, credentials from the environment as a user would set them."""
    monkeypatch.setenv("MODHUB_API_KEY", server.api_key)
    monkeypatch.setenv("MODHUB_SECRET", server.secret_key)

    def go(*args: str) -> tuple[int, str]:
        code = main(["--base-url", server.base_url, *args])
        out = capsys.readouterr()
        return code, out.out + out.err

    return go


def test_install_verify_list_remove(run, server, client, catalogue, tmp_path):
    post_id, version, loader, deps = catalogue.with_dependency(client)
    user = client.get_mod(post_id)["authors"][0]["userId"]  # some demo resources need a signed-in user
    for post in [post_id, *deps]:  # and some are members-only: the operator lets this user have them
        if client.download_auth(post, proxy_user=ProxyUser(user))["deniedReason"]:
            server.cli("admin", "entitlement", "grant", str(user), str(post))
    args = [
        "--user-id",
        str(user),
        "install",
        str(post_id),
        "--game-version",
        version,
        "--dest",
        str(tmp_path),
    ]
    code, out = run(*args, *(["--loader", loader] if loader else []))
    assert code == 0, out
    lock = json.loads((tmp_path / LOCK).read_text())
    mods = {m["postId"]: m for m in lock["mods"]}
    assert set(deps) | {post_id} <= set(mods) and lock["gameVersion"] == version
    for mod in mods.values():
        assert set(mod["hashes"]) == {"sha1", "sha256", "sha512"} and (tmp_path / mod["path"]).is_file()
        assert mod["fileId"] and mod["fileVersion"] is not None
    assert mods[deps[0]]["requiredBy"] == [post_id]
    assert any(m.get("scriptKeyId") for m in mods.values())  # the demo's scripts are signed

    code, out = run(*args, *(["--loader", loader] if loader else []))  # again: nothing to do
    assert code == 0 and "installed 0 file(s)" in out
    assert json.loads((tmp_path / LOCK).read_text())["mods"] == lock["mods"]
    assert run("verify", "--dest", str(tmp_path))[0] == 0
    listed = run("list", "--dest", str(tmp_path))[1]
    assert all(m["path"] in listed for m in mods.values())

    code, out = run("remove", str(deps[0]), "--dest", str(tmp_path))
    assert code == 5 and "required by" in out
    assert run("remove", str(post_id), "--dest", str(tmp_path))[0] == 0
    assert post_id not in {m["postId"] for m in json.loads((tmp_path / LOCK).read_text())["mods"]}
    assert not (tmp_path / mods[post_id]["path"]).exists()


def test_a_tampered_file_fails_verify(run, catalogue, tmp_path):
    post_id, version, loader, _, newest = catalogue.with_update()
    assert (
        run("install", str(post_id), "--game-version", version, "--loader", loader, "--dest", str(tmp_path))[
            0
        ]
        == 0
    )
    path = tmp_path / json.loads((tmp_path / LOCK).read_text())["mods"][0]["path"]
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF
    path.write_bytes(bytes(data))
    code, out = run("verify", "--dest", str(tmp_path))
    assert code == 6 and "MISMATCH" in out


def test_update_replaces_an_older_file_with_the_newest(run, client, catalogue, tmp_path):
    post_id, version, loader, older, newest = catalogue.with_update()
    assert (
        run("install", str(post_id), "--game-version", version, "--loader", loader, "--dest", str(tmp_path))[
            0
        ]
        == 0
    )
    # the folder as it was before the newest file was published: the older file installed
    lock = json.loads((tmp_path / LOCK).read_text())
    entry = next(m for m in lock["mods"] if m["postId"] == post_id)
    (tmp_path / entry["path"]).unlink()
    entry.update({"fileId": older["fileInfoId"], "fileName": older["fileName"], "path": older["fileName"]})
    entry["hashes"] = client.download(
        post_id, older["fileInfoId"], tmp_path / older["fileName"], expected=expected_hashes(older)
    ).hashes
    (tmp_path / LOCK).write_text(json.dumps(lock))

    code, out = run("update", "--game-version", version, "--dest", str(tmp_path))
    assert code == 0, out
    entry = next(m for m in json.loads((tmp_path / LOCK).read_text())["mods"] if m["postId"] == post_id)
    assert entry["fileId"] == newest["fileInfoId"] and entry["hashes"]["sha256"] == newest["hashes"]["sha256"]
    assert (tmp_path / newest["fileName"]).is_file()
    if older["fileName"] != newest["fileName"]:
        assert not (tmp_path / older["fileName"]).exists()
    assert run("verify", "--dest", str(tmp_path))[0] == 0


def test_a_declared_incompatibility_is_refused(run, client, catalogue, tmp_path):
    a, a_version, b, b_version = catalogue.incompatible_pair(client)
    assert run("install", str(b), "--game-version", b_version, "--dest", str(tmp_path))[0] == 0
    before = (tmp_path / LOCK).read_text()
    code, out = run("install", str(a), "--game-version", a_version, "--dest", str(tmp_path))
    assert code == 5 and f"mod {a} declares itself incompatible with mod {b}" in out
    assert (tmp_path / LOCK).read_text() == before  # nothing downloaded, the lock unchanged


def test_no_matching_file_and_missing_credentials_exit_codes(run, catalogue, tmp_path, monkeypatch):
    post_id = catalogue.uploaded()[0][0]
    code, out = run("install", str(post_id), "--game-version", "no-such-version", "--dest", str(tmp_path))
    assert code == 4 and "no on-site file" in out
    monkeypatch.delenv("MODHUB_SECRET")
    assert run("install", str(post_id), "--game-version", "x", "--dest", str(tmp_path))[0] == 2


def test_the_console_script_is_installed(tmp_path):
    script = Path(sys.executable).parent / "modhub-get"
    done = subprocess.run(
        [str(script), "list", "--dest", str(tmp_path)], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2 and "install something first" in done.stderr
