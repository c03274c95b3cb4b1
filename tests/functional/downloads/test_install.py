"""install-config (v2 aliases, v1), install-info with its signature verified by openssl,
install-launch and game-startup-command GET/POST on every alias path."""

from __future__ import annotations

import json
import os

from sqlalchemy import select

from models.downloads import access
from models.downloads.launch import heap_sizes, java_version
from models.downloads.tables import StartupCommandReport
from tests.functional.files.test_signing import _openssl_verify
from tests.helpers.catalog import data, error_code
from tests.helpers.downloads import fetch

CONFIG = [
    "/openapi/v2/mods/{}/install-config",
    "/openapi/v2/resource/{}/install-config",
    "/openapi/v1/resource/{}/install-config",
]
INFO = ["/openapi/v2/mods/{}/install-info", "/openapi/v2/resource/{}/install-info"]
LAUNCH = ["/openapi/v2/mods/{}/install-launch", "/openapi/v2/resource/{}/install-launch"]
STARTUP = [
    "/openapi/v2/mods/{}/game-startup-command",
    "/openapi/v2/resource/{}/game-startup-command",
    "/openapi/v2/modpacks/{}/game-startup-command",
]


def _script(file_ids: list[int]) -> str:
    return (
        json.dumps(
            {
                "files": file_ids,
                "source": "AUTHOR",
                "summary": "copy the jar, then the config",
                "steps": [
                    {"action": "extract", "from": "@1", "to": "config/", "stripComponents": 1},
                    {"action": "copy", "from": "@0", "to": "mods/"},
                ],
                "dependencies": [
                    {"resourcePostId": 42, "name": "Lib", "required": True, "versionRequirement": ">=1.2"},
                ],
                "preChecks": [{"type": "GAME_VERSION", "condition": ">=1.20", "failMessage": "too old"}],
                "postActions": [{"type": "RESTART", "params": {"delay": 1}}],
                "serverPackLayout": {"version": 1, "status": "ROOT", "rootPath": "", "fileCount": 3},
                "note": "注释 non-ASCII, CRLF line end after the object",
            },
            ensure_ascii=False,
            indent=1,
        )
        + "\r\n"
    )


def test_install_config_on_every_alias(signed, client, cat, post, stored, db):
    jar, cfg = stored(post, b"jar"), stored(post, b"cfg", file_name="config.zip")
    lib, extra = cat.post(main_name="Lib"), cat.post(main_name="Extra")
    cat.relation(post, lib, is_required=True)  # the script's entry for 42 names no relation
    cat.relation(post, extra, is_required=False)
    cat.relation(post, extra, kind="RECOMMENDATION")
    script = _script([jar, cfg]).replace('"resourcePostId": 42', f'"resourcePostId": {lib}')
    with db.session() as s:
        from models.catalog.tables import ResourcePost

        s.get(ResourcePost, post).install_script = script
        s.commit()
    relations = data(signed.get(f"/openapi/v2/mods/{post}/relations"))
    for path in CONFIG:
        got = data(signed.get(path.format(post)))
        assert got["postId"] == post and got["fileInfoId"] == cfg  # newest file by default
        assert got["installScript"] == script
        assert got["scriptDocument"] == json.loads(script)  # an InstallScript: parsed
        # one source: the DEPENDENCY relations; the script only adds a versionRequirement
        assert got["dependencies"] == [
            {"resourcePostId": lib, "name": "Lib", "required": True, "versionRequirement": ">=1.2"},
            {"resourcePostId": extra, "name": "Extra", "required": False, "versionRequirement": None},
        ]
        assert [(d["resourcePostId"], d["required"]) for d in got["dependencies"]] == [
            (r["targetPostId"], r["isRequired"]) for r in relations if r["relationType"] == "DEPENDENCY"
        ]
        assert got["preChecks"][0]["failMessage"] == "too old"
        assert got["postActions"] == [{"type": "RESTART", "params": {"delay": 1}}]
        assert got["serverPackLayout"]["status"] == "ROOT"
        assert [(f["index"], f["fileInfoId"]) for f in got["files"]] == [(0, jar), (1, cfg)]
        # a free on-site file has a URL (the schema: null only for paid or cloud-disk files)
        assert all(f["downloadUrl"] and f["downloadUrlExpiresAt"] for f in got["files"])
        assert fetch(client, got["files"][0]["downloadUrl"]).content == b"jar"
    got = data(signed.get(CONFIG[2].format(post) + f"?fileInfoId={jar}"))
    assert got["fileInfoId"] == jar
    assert error_code(signed.get(CONFIG[2].format(post) + "?fileInfoId=999999999"), 404) == 200404


def test_install_config_urls_are_null_only_for_paid_or_cloud_disk_files(signed, cat, stored):
    paid = cat.post(is_paid=True)
    stored(paid, b"paid bytes")
    assert [f["downloadUrl"] for f in data(signed.get(CONFIG[0].format(paid)))["files"]] == [None]
    free = cat.post()
    cat.file(
        free, storage_type="CLOUD_DISK", down_info=[{"type": "CLOUD_DISK", "url": "https://pan.example/s/1"}]
    )
    assert [f["downloadUrl"] for f in data(signed.get(CONFIG[1].format(free)))["files"]] == [None]
    linked = cat.post()
    cat.file(linked, storage_type="DIRECT_LINK", external_url="https://cdn.example/a.jar")
    files = data(signed.get(CONFIG[0].format(linked)))["files"]
    assert [(f["downloadUrl"], f["downloadUrlExpiresAt"]) for f in files] == [
        ("https://cdn.example/a.jar", None)
    ]


def test_install_config_without_script_or_with_a_broken_one(signed, cat, post, stored):
    fid = stored(post, b"x")
    got = data(signed.get(CONFIG[0].format(post)))
    assert got["installScript"] is None and got["dependencies"] == []
    assert [f["fileInfoId"] for f in got["files"]] == [fid]
    broken = cat.post(install_script="not json @0")
    f2 = stored(broken, b"y")
    got = data(signed.get(CONFIG[1].format(broken)))
    assert got["installScript"] == "not json @0" and got["serverPackLayout"] is None
    assert got["scriptDocument"] is None
    other = cat.post(install_script=json.dumps({"steps": [{"copy": "@0", "to": "mods/"}]}))
    stored(other, b"z")
    assert data(signed.get(CONFIG[0].format(other)))["scriptDocument"] is None  # another shape
    assert [f["fileInfoId"] for f in got["files"]] == [f2]
    for path in CONFIG + INFO + LAUNCH:
        assert error_code(signed.get(path.format(999999999)), 404) == 200404


def test_install_info_is_signed_and_verifies_with_openssl(signed, client, post, stored, db, tmp_path):
    content = os.urandom(5000)
    jar, cfg = stored(post, content), stored(post, b"cfg")
    script = _script([jar, cfg])
    with db.session() as s:
        from models.catalog.tables import ResourcePost

        s.get(ResourcePost, post).install_script = script
        s.commit()
    pem = client.get("/openapi/v2/meta/install-signing-key").content
    for path in INFO:
        got = data(signed.get(path.format(post)))
        assert got["script"] == script and got["scriptSource"] == "AUTHOR"
        assert got["scriptSummary"] == "copy the jar, then the config"
        assert got["postUrl"] == f"https://modhub.example/resource/{post}"
        done = _openssl_verify(tmp_path, pem, got["scriptSignature"], got["script"].encode())
        assert done.returncode == 0 and "Verified OK" in done.stdout
        tampered = _openssl_verify(
            tmp_path, pem, got["scriptSignature"], got["script"].replace("mods/", "mods2/").encode()
        )
        assert tampered.returncode != 0
        assert [(f["index"], f["fileInfoId"]) for f in got["files"]] == [(0, jar), (1, cfg)]
        assert all(f["downloadUrl"] and f["downloadUrlExpiresAt"] for f in got["files"])
        r = fetch(client, got["files"][0]["downloadUrl"])
        assert r.status_code == 200 and r.content == content


def test_install_info_of_a_paid_resource(signed, cat, stored, make_user, db):
    cat.section()
    cat.platform()
    paid = cat.post(is_paid=True)
    stored(paid, b"paid bytes")
    buyer = make_user()
    got = data(signed.get(INFO[0].format(paid)))
    assert got["script"] is None and got["scriptSignature"] is None
    assert [f["downloadUrl"] for f in got["files"]] == [None]
    assert (
        data(signed.get(INFO[1].format(paid), headers={"X-Proxy-User-Id": str(buyer)}))["files"][0][
            "downloadUrl"
        ]
        is None
    )
    with db.session() as s:
        access.grant(s, user_id=buyer, post_id=paid)
        s.commit()
    url = data(signed.get(INFO[1].format(paid), headers={"X-Proxy-User-Id": str(buyer)}))["files"][0][
        "downloadUrl"
    ]
    assert url and f"u={buyer}" in url
    assert (
        error_code(signed.get(INFO[0].format(paid), headers={"X-Proxy-User-Id": "999999999"}), 401) == 200215
    )


def test_install_launch(signed, client, post):
    for path in LAUNCH:
        got = data(signed.get(path.format(post)))
        assert got["deeplink"] == f"modhub://install?postId={post}"
        assert got["fallbackUrl"] == f"https://modhub.example/resource/{post}"
        assert client.get(f"/resource/{post}").status_code == 200  # the page is real
        assert got["clientDownloadUrl"] is None  # no client download page is published
        assert got["detectProcessNames"] and got["guide"].startswith("1. Install")


def test_startup_command_get_and_report(signed, post, stored, db):
    stored(post, b"x", resource_versions=["1.20.1", "1.19.2"])
    for path in STARTUP:
        got = data(signed.get(path.format(post) + "?memoryMb=8192"))
        assert (got["heapMinMb"], got["heapMaxMb"]) == (1024, 6144)
        assert got["javaVersion"] == "17" and got["runPlatform"] == "forge"
        assert got["loaderArguments"] == ["--launchTarget", "forgeclient"]
        assert got["command"].startswith("java -Xms1024m -Xmx6144m ") and got["source"] == "GENERATED"
        assert error_code(signed.get(path.format(post) + "?memoryMb=10"), 400) == 200301
        assert (
            data(
                signed.post(
                    path.format(post),
                    json={
                        "command": got["command"],
                        "origin": "SUGGESTED",
                        "memoryMb": 8192,
                        "success": True,
                        "gameVersion": "1.20.1",
                        "javaVersion": "17.0.9",
                        "clientVersion": "test 1",
                    },
                )
            )
            is None
        )
    signed.post(
        STARTUP[0].format(post),
        json={"command": "java -jar x", "origin": "USER_EDITED", "success": True, "gameVersion": "1.19.2"},
    )
    assert (
        error_code(signed.post(STARTUP[0].format(post), json={"command": "", "origin": "X"}), 400) == 200301
    )
    assert (
        error_code(
            signed.post(STARTUP[1].format(999999999), json={"command": "java", "origin": "LAUNCHER"}), 404
        )
        == 200404
    )
    with db.session() as s:
        rows = s.scalars(select(StartupCommandReport).where(StartupCommandReport.post_id == post)).all()
        assert len(rows) == 4 and {r.origin for r in rows} == {"SUGGESTED", "USER_EDITED"}
    got = data(signed.get(INFO[0].format(post)))
    assert got["verifiedGameVersions"] == ["1.20.1", "1.19.2"]


def test_heap_and_java_rules():
    assert heap_sizes(256) == (512, 512)
    assert heap_sizes(4096) == (1024, 2560)
    assert heap_sizes(1048576) == (1024, 16384)
    assert java_version(["1.20.6"]) == "21" and java_version(["1.16.5", "1.12.2"]) == "8"
    assert java_version(["1.17.1"]) == "16" and java_version(["beta"]) is None
