"""Mod-manager reads in one call: search by game version and loader (extensions), unknown query
parameters refused, and relations of up to 50 resources at once (an extension)."""

from __future__ import annotations

import pytest

from tests.helpers.catalog import data, error_code

SEARCH = ["/openapi/v2/mods/search", "/openapi/v2/resource/query"]
RELATIONS = "/openapi/v2/relations/batch"


def _ids(page: dict) -> list[int]:
    return sorted(item["postId"] for item in page["list"])


@pytest.fixture()
def shelf(cat):
    """Resources whose files are for different game versions and loaders."""
    forge_120 = cat.post(run_platform="forge")
    cat.file(forge_120, resource_versions=["1.20.1"], run_platform="forge")
    fabric_119 = cat.post(run_platform="fabric")
    cat.file(fabric_119, resource_versions=["1.19.2"], run_platform="fabric")
    both = cat.post(run_platform="forge")  # the post names forge, a file is for fabric too
    cat.file(both, resource_versions=["1.20.1"], run_platform="forge")
    cat.file(both, resource_versions=["1.19.2"], run_platform="fabric")
    pack = cat.post(run_platform=None, resource_type="datapack")  # no loader at all
    cat.file(pack, resource_versions=["1.20.1"], run_platform=None)
    hidden_file = cat.post(run_platform="forge")
    cat.file(hidden_file, resource_versions=["1.21"], run_platform="forge", file_status="HIDDEN")
    return {
        "forge_120": forge_120,
        "fabric_119": fabric_119,
        "both": both,
        "pack": pack,
        "hidden": hidden_file,
    }


@pytest.mark.parametrize("path", SEARCH)
def test_search_by_game_version_and_run_platform(signed, shelf, path):
    def found(**params):
        return _ids(data(signed.get(path, params={"pageSize": 100, **params})))

    s = shelf
    assert found(gameVersion="1.20.1") == sorted([s["forge_120"], s["both"], s["pack"]])
    assert found(gameVersion="1.21") == []  # only visible files count
    assert found(runPlatform="fabric") == sorted([s["fabric_119"], s["both"]])  # a file for it counts
    # together: one file for that version, for that loader or for none
    assert found(gameVersion="1.20.1", runPlatform="fabric") == [s["pack"]]
    assert found(gameVersion="1.19.2", runPlatform="fabric") == sorted([s["fabric_119"], s["both"]])
    assert found(gameVersion="1.20.1", runPlatform="forge") == sorted([s["forge_120"], s["both"], s["pack"]])


@pytest.mark.parametrize("path", SEARCH + ["/openapi/v2/mods/sync", "/openapi/v2/mods/1/comments"])
def test_unknown_query_parameters_are_refused(signed, path):
    response = signed.get(path, params={"gameVersoin": "1.20.1"})
    assert error_code(response, 400) == 200301
    assert "gameVersoin" in response.json()["msg"]


def test_an_operation_without_query_parameters_does_not_read_the_query_string(signed):
    assert signed.get("/openapi/v2/games", params={"anything": "1"}).status_code == 200


def test_relations_of_many_resources_in_request_order(signed, cat):
    a, b, c = cat.post(), cat.post(), cat.post()
    cat.relation(a, b, is_required=True)
    cat.relation(a, c, kind="RECOMMENDATION")
    hidden = cat.post(visibility="PRIVATE")
    got = data(signed.post(RELATIONS, json={"postIds": [b, a, 999999999, hidden]}))
    assert got[0] == {"postId": b, "relations": []}
    assert got[1]["postId"] == a
    assert got[1]["relations"] == data(signed.get(f"/openapi/v2/mods/{a}/relations"))
    assert got[2] is None and got[3] is None  # unknown or not listed: null at its position
    again = signed.post(RELATIONS, json={"postIds": [b, a]}, headers={"If-None-Match": "*"})
    assert again.status_code == 304


@pytest.mark.parametrize("post_ids", [[], list(range(1, 52)), [0], ["x"]])
def test_relations_batch_bounds(signed, post_ids):
    assert error_code(signed.post(RELATIONS, json={"postIds": post_ids}), 400) == 200301
