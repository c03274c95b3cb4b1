"""Launcher extensions: files/lookup (by sha1, sha256, sha512) and files/updates."""

from __future__ import annotations

import datetime as dt
import hashlib
import os

from tests.helpers.catalog import data, error_code

LOOKUP, UPDATES = "/openapi/v2/files/lookup", "/openapi/v2/files/updates"


def test_lookup_in_request_order_with_every_algorithm(signed, cat, post, stored):
    a, b = os.urandom(1000), os.urandom(1000)
    fa, fb = stored(post, a), stored(post, b)
    private = cat.post(visibility="PRIVATE")
    hidden_bytes = os.urandom(100)
    stored(private, hidden_bytes)
    for algo in ("sha1", "sha256", "sha512"):
        h = [getattr(hashlib, algo)(x).hexdigest() for x in (b, os.urandom(8), a, hidden_bytes)]
        h[2] = h[2].upper()
        got = data(signed.post(LOOKUP, json={"algorithm": algo, "hashes": h}))
        assert got[1] is None and got[3] is None
        assert got[0]["file"]["fileInfoId"] == fb and got[2]["file"]["fileInfoId"] == fa
        assert got[2]["hash"] == h[2].lower() and got[0]["mod"]["postId"] == post
        assert got[0]["file"]["hashes"][algo] == got[0]["hash"]


def test_lookup_of_a_hundred_hashes_and_bad_input(signed, post, stored):
    content = os.urandom(64)
    stored(post, content)
    hashes = [hashlib.sha256(os.urandom(8)).hexdigest() for _ in range(99)]
    hashes.append(hashlib.sha256(content).hexdigest())
    got = data(signed.post(LOOKUP, json={"algorithm": "sha256", "hashes": hashes}))
    assert len(got) == 100 and got[:99] == [None] * 99 and got[99]["file"]["postId"] == post
    for body in (
        {"algorithm": "sha256", "hashes": hashes + [hashes[0]]},
        {"algorithm": "md5", "hashes": hashes[:1]},
        {"algorithm": "sha256", "hashes": []},
        {"algorithm": "sha1", "hashes": hashes[:1]},  # a sha256 is no sha1
        {"algorithm": "sha256", "hashes": ["zz" * 32]},
    ):
        assert error_code(signed.post(LOOKUP, json=body), 400) == 200301, body


def test_updates_pick_the_newest_matching_file(signed, cat, post, stored):
    t0 = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
    old = os.urandom(100)
    stored(post, old, publish_time=t0, resource_versions=["1.20.1"])
    newer = stored(
        post, os.urandom(100), publish_time=t0 + dt.timedelta(days=2), resource_versions=["1.20.1", "1.20.2"]
    )
    stored(
        post,
        os.urandom(100),
        publish_time=t0 + dt.timedelta(days=3),
        resource_versions=["1.20.1"],
        run_platform="fabric",
    )
    stored(post, os.urandom(100), publish_time=t0 + dt.timedelta(days=4), resource_versions=["1.21"])
    stored(
        post,
        os.urandom(100),
        publish_time=t0 + dt.timedelta(days=5),
        resource_versions=["1.20.1"],
        file_status="HIDDEN",
    )
    h_old = hashlib.sha256(old).hexdigest()
    unknown = hashlib.sha256(b"nothing").hexdigest()
    body = {
        "algorithm": "sha256",
        "hashes": [h_old, unknown],
        "gameVersion": "1.20.1",
        "runPlatform": "forge",
    }
    got = data(signed.post(UPDATES, json=body))
    assert got[1] == {
        "hash": unknown,
        "status": "UNKNOWN_HASH",
        "installedFileInfoId": None,
        "upToDate": False,
        "file": None,
    }
    assert got[0]["file"]["fileInfoId"] == newer and got[0]["upToDate"] is False
    assert got[0]["status"] == "UPDATE_AVAILABLE"
    current = data(signed.post(UPDATES, json={**body, "hashes": [got[0]["file"]["sha256"]]}))
    assert current[0]["upToDate"] is True and current[0]["status"] == "UP_TO_DATE"
    none = data(signed.post(UPDATES, json={**body, "gameVersion": "1.12.2"}))
    assert [(e["status"], e["file"]) for e in none] == [("NO_MATCHING_FILE", None), ("UNKNOWN_HASH", None)]
    assert none[0]["installedFileInfoId"] is not None
    assert error_code(signed.post(UPDATES, json={"algorithm": "sha256", "hashes": [h_old]}), 400) == 200301
    for side in ("BOTH", "client"):
        assert error_code(signed.post(UPDATES, json={**body, "environmentSide": side}), 400) == 200301


def test_updates_match_files_without_a_loader_and_filter_by_side(signed, cat, post, stored):
    t0 = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
    pack = os.urandom(100)
    stored(post, pack, publish_time=t0, run_platform=None)  # a data pack: no loader
    loaderless = stored(post, os.urandom(100), publish_time=t0 + dt.timedelta(days=1), run_platform=None)
    client_only = stored(
        post,
        os.urandom(100),
        publish_time=t0 + dt.timedelta(days=2),
        run_platform=None,
        environment_side="CLIENT",
    )
    body = {"algorithm": "sha256", "hashes": [hashlib.sha256(pack).hexdigest()], "gameVersion": "1.20.1"}
    # no runPlatform: files of every loader match
    assert data(signed.post(UPDATES, json=body))[0]["file"]["fileInfoId"] == client_only
    # a runPlatform: files naming it, and files naming no loader
    forge = data(signed.post(UPDATES, json={**body, "runPlatform": "forge"}))[0]
    assert forge["status"] == "UPDATE_AVAILABLE" and forge["file"]["fileInfoId"] == client_only
    # a side: files for that side or for both
    server = data(signed.post(UPDATES, json={**body, "runPlatform": "forge", "environmentSide": "SERVER"}))[0]
    assert server["file"]["fileInfoId"] == loaderless
    client = data(signed.post(UPDATES, json={**body, "environmentSide": "CLIENT"}))[0]
    assert client["file"]["fileInfoId"] == client_only
