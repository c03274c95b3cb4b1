"""Sections, run platforms, the category tree and filter options, on both alias paths."""

import pytest

from tests.helpers.catalog import data, error_code


@pytest.fixture()
def games(cat):
    cat.section("minecraft", sort_order=2)
    cat.section("terraria", description="泰拉瑞亚", english_name="Terraria", sort_order=1)
    cat.section("hidden", enable=False)
    cat.section("gone", is_delete=True)
    cat.post(section_code="minecraft")
    cat.post(section_code="minecraft", visibility="PRIVATE")
    cat.post(section_code="minecraft", is_delete=True)
    cat.post(section_code="terraria", status="DRAFT")


@pytest.mark.parametrize("path", ["/openapi/v2/games", "/openapi/v2/section/list"])
def test_list_sections_enabled_by_sort_order_with_listed_counts(signed, games, path):
    sections = data(signed.get(path))
    assert [s["sectionCode"] for s in sections] == ["terraria", "minecraft"]
    mc = sections[1]
    assert mc["resourcePostCount"] == 1 and sections[0]["resourcePostCount"] == 0
    assert mc["iconUrl"] == "https://cdn.example/icons/minecraft.png"
    assert mc["description"] == "我的世界" and mc["englishName"] == "Minecraft" and mc["parentCode"] is None


@pytest.mark.parametrize("prefix", ["/openapi/v2/games", "/openapi/v2/section"])
def test_get_section_and_unknown_or_deleted(signed, games, prefix):
    assert data(signed.get(f"{prefix}/minecraft"))["resourcePostCount"] == 1
    assert data(signed.get(f"{prefix}/hidden"))["enable"] is False
    assert error_code(signed.get(f"{prefix}/gone"), 404) == 200404
    assert error_code(signed.get(f"{prefix}/nope"), 404) == 200404
    assert error_code(signed.get(f"{prefix}/{'x' * 65}"), 400) == 200301
    assert error_code(signed.get(f"{prefix}/bad%20code"), 400) == 200301


@pytest.mark.parametrize("path", ["/openapi/v2/mod-loaders", "/openapi/v2/run-platform/list"])
def test_list_run_platforms(signed, cat, path):
    cat.platform("fabric", sort_order=2)
    cat.platform("forge", sort_order=1, description="经典 classic")
    cat.platform("off", enable=False)
    cat.platform("gone", is_delete=True)
    platforms = data(signed.get(path))
    assert [p["code"] for p in platforms] == ["forge", "fabric"]
    assert platforms[0] == {
        "infoId": platforms[0]["infoId"],
        "code": "forge",
        "name": "Forge",
        "description": "经典 classic",
        "iconUrl": "https://cdn.example/p/forge.png",
        "enable": True,
    }


@pytest.mark.parametrize("prefix", ["/openapi/v2/mod-loaders", "/openapi/v2/run-platform"])
def test_get_run_platform(signed, cat, prefix):
    cat.platform("forge")
    cat.platform("gone", is_delete=True)
    assert data(signed.get(f"{prefix}/forge"))["code"] == "forge"
    assert error_code(signed.get(f"{prefix}/gone"), 404) == 200404
    assert error_code(signed.get(f"{prefix}/neoforge"), 404) == 200404


@pytest.fixture()
def tree(cat):
    cat.category("mod", sort_order=1)
    cat.category("map", sort_order=2)
    cat.category("mod-tech", "mod", sort_order=1)
    cat.category("mod-tech-energy", "mod-tech")
    cat.category("mod-magic", "mod", sort_order=2)
    cat.category("mod-old", "mod", is_delete=True)
    cat.category("map-parkour", "map", section_code="minecraft")
    cat.post(resource_type="mod", main_categories=["mod-tech", "mod-tech-energy"])
    cat.post(resource_type="mod", main_categories=["mod-tech-energy"])
    cat.post(resource_type="mod", main_categories=["mod-magic"], run_platform="fabric")
    cat.post(resource_type="mod", main_categories=["mod-magic"], visibility="PRIVATE")
    cat.post(resource_type="map", main_categories=[], section_code="terraria", run_platform=None)


@pytest.mark.parametrize("path", ["/openapi/v2/categories/tree", "/openapi/v2/category/tree"])
def test_category_tree_is_nested_and_counts_sub_categories_once(signed, tree, path):
    roots = data(signed.get(path))
    assert [r["categoryCode"] for r in roots] == ["mod", "map"]
    mod, game_map = roots
    assert mod["postCount"] == 3 and mod["parentCode"] is None
    assert [c["categoryCode"] for c in mod["children"]] == ["mod-tech", "mod-magic"]
    tech, magic = mod["children"]
    assert tech["postCount"] == 2  # the post filed under both tech and energy counts once
    assert magic["postCount"] == 1  # the private post does not count
    assert tech["children"][0]["categoryCode"] == "mod-tech-energy"
    assert tech["children"][0]["postCount"] == 2 and tech["children"][0]["children"] == []
    assert game_map["postCount"] == 1 and game_map["children"][0]["categoryCode"] == "map-parkour"


@pytest.mark.parametrize("prefix", ["/openapi/v2/games", "/openapi/v2/section"])
def test_filter_options_of_a_section(signed, cat, tree, prefix):
    cat.section("minecraft")
    cat.section("terraria")
    cat.platform("forge", name="Forge")
    cat.platform("fabric", name="Fabric")
    options = data(signed.get(f"{prefix}/minecraft/filter-options"))
    assert {o["code"]: o["count"] for o in options["resourceTypes"]} == {"mod": 3, "map": 0}
    assert all(o["parentCode"] is None for o in options["resourceTypes"])
    seconds = {o["code"]: (o["parentCode"], o["count"]) for o in options["mainCategories"]}
    assert seconds == {"mod-tech": ("mod", 2), "mod-magic": ("mod", 1), "map-parkour": ("map", 0)}
    assert [(o["code"], o["count"]) for o in options["runPlatforms"]] == [("forge", 2), ("fabric", 1)]
    terraria = data(signed.get(f"{prefix}/terraria/filter-options"))
    assert "map-parkour" not in {o["code"] for o in terraria["mainCategories"]}  # minecraft only
    assert terraria["runPlatforms"] == []
    assert error_code(signed.get(f"{prefix}/nope/filter-options"), 404) == 200404
