"""Helpers of the authoring tests (imported by their conftest and by any test that needs them)."""

from __future__ import annotations

from dataclasses import dataclass

from tests.helpers.catalog import data

V2 = "/openapi/v2"


# (mods alias, resource alias) of each operation
INIT = (f"{V2}/mods/draft/init", f"{V2}/resource/init-draft")


SAVE = (f"{V2}/mods/draft/{{}}/save", f"{V2}/resource/draft/{{}}/save")


PUBLISH = (f"{V2}/mods/draft/{{}}/publish", f"{V2}/resource/draft/{{}}/publish")


EDIT = (f"{V2}/mods/{{}}/edit", f"{V2}/resource/{{}}/edit")


@dataclass
class Taxonomy:
    """Ids of the test taxonomy."""

    mod_type: int
    tech: int
    magic: int
    other_section_cat: int
    forge: int
    listed_post: int


@dataclass
class Author:
    """A proxy user and the headers that act for them."""

    user_id: int
    headers: dict


def full_body(tax: Taxonomy, **fields) -> dict:
    """A complete save record of a free mod."""
    return {
        "mainName": "机械动力 Create",
        "subName": "Create",
        "sectionCode": "minecraft",
        "resourceTypeId": tax.mod_type,
        "mainCategory": f"{tax.tech},{tax.magic}",
        "runPlatformId": tax.forge,
        "introduction": "齿轮 gears",
        "resourceVersion": "1.0",
        "content": "<p>hello<script>x()</script></p>",
        "mdContent": "hello",
        "clientEnvironment": "REQUIRED",
        "serverEnvironment": "REQUIRED",
        "postTags": ["tech"],
        "updateCommit": "first",
        "relation": {"dependencies": [{"postId": tax.listed_post, "required": True}]},
        "authors": "[]",
        **fields,
    }


def new_draft(signed, author: Author, tax: Taxonomy, alias: int = 0) -> int:
    """A NEW draft made with init; its id."""
    body = {
        "sectionCode": "minecraft",
        "resourceTypeId": tax.mod_type,
        "categoryId": str(tax.tech),
        "title": "机械动力 Create",
    }
    return data(signed.post(INIT[alias], json=body, headers=author.headers))["postId"]
