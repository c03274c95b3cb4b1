"""Reads of sections, run platforms, the category tree and the filter options of a section."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable
from typing import NamedTuple

from sqlalchemy import Text, cast, func, select
from sqlalchemy.orm import Session

from models.catalog.queries import cached, listed_clause
from models.catalog.records import category_node, run_platform_vo, section_vo
from models.catalog.tables import Category, ResourcePost, RunPlatform, Section
from models.catalog.vos import (
    CategoryNode,
    CopyrightOption,
    FilterOption,
    RunPlatformVO,
    SectionFilterOptions,
    SectionVO,
)
from modhub.core.display import Display
from modhub.core.errors import ApiError


def _posts_per_section(session: Session) -> dict[str, int]:
    """Listed resource posts per section code (cached aggregate)."""

    def count() -> dict[str, int]:
        return dict(
            session.execute(
                select(ResourcePost.section_code, func.count())
                .where(listed_clause())
                .group_by(ResourcePost.section_code)
            ).all()
        )

    return cached(session, "posts_per_section", count)


def list_sections(session: Session, *, display: Display) -> list[SectionVO]:
    """SectionVO of every enabled section, by sort order."""
    sections = list(
        session.scalars(
            select(Section)
            .where(Section.enable.is_(True), Section.is_delete.is_(False))
            .order_by(Section.sort_order, Section.id)
        )
    )
    counts = _posts_per_section(session) if sections else {}
    return [section_vo(s, post_count=counts.get(s.code, 0), display=display) for s in sections]


def get_section_or_raise(session: Session, *, code: str) -> Section:
    """A section that is not deleted, or RECORD_NOT_FOUND."""
    section = session.scalar(select(Section).where(Section.code == code, Section.is_delete.is_(False)))
    if section is None:
        raise ApiError("RECORD_NOT_FOUND", f"section {code!r} does not exist")
    return section


def get_section(session: Session, *, code: str, display: Display) -> SectionVO:
    """SectionVO of one section."""
    section = get_section_or_raise(session, code=code)
    count = _posts_per_section(session).get(code, 0)
    return section_vo(section, post_count=count, display=display)


def list_run_platforms(session: Session, *, display: Display) -> list[RunPlatformVO]:
    """RunPlatformVO of every enabled run platform, by sort order."""
    rows = session.scalars(
        select(RunPlatform)
        .where(RunPlatform.enable.is_(True), RunPlatform.is_delete.is_(False))
        .order_by(RunPlatform.sort_order, RunPlatform.id)
    )
    return [run_platform_vo(p, display=display) for p in rows]


def get_run_platform(session: Session, *, code: str, display: Display) -> RunPlatformVO:
    """RunPlatformVO of one run platform (not deleted), or RECORD_NOT_FOUND."""
    platform = session.scalar(
        select(RunPlatform).where(RunPlatform.code == code, RunPlatform.is_delete.is_(False))
    )
    if platform is None:
        raise ApiError("RECORD_NOT_FOUND", f"run platform {code!r} does not exist")
    return run_platform_vo(platform, display=display)


def _categories(session: Session, section_code: str | None = None) -> list[Category]:
    query = select(Category).where(Category.is_delete.is_(False))
    if section_code is not None:
        query = query.where(Category.section_code.is_(None) | (Category.section_code == section_code))
    return list(session.scalars(query.order_by(Category.sort_order, Category.id)))


def _ancestors(categories: list[Category]) -> dict[str, set[str]]:
    """Each category code with itself and its ancestors (cycles and dangling parents tolerated)."""
    parent = {c.code: c.parent_code for c in categories}
    lineage: dict[str, set[str]] = {}
    for code in parent:
        seen: set[str] = set()
        cur: str | None = code
        while cur in parent and cur not in seen:
            seen.add(cur)
            cur = parent[cur]
        lineage[code] = seen
    return lineage


class Combo(NamedTuple):
    """A group of listed posts with the same resource type and category list (and run platform,
    when grouped by it) and how many posts it holds."""

    resource_type: str | None
    categories: str | None  # the JSON text of the category list
    run_platform: str | None  # None when not grouped by run platform
    posts: int


def _combo_counts(
    session: Session, *, by_platform: bool = False, section_code: str | None = None
) -> list[Combo]:
    """Listed posts grouped by (type, category list[, run platform]): few groups, exact distinct
    counts (a cached aggregate)."""
    categories = cast(ResourcePost.main_categories, Text)
    where = [listed_clause()]
    if section_code is not None:
        where.append(ResourcePost.section_code == section_code)

    def count() -> list[Combo]:
        if by_platform:
            rows = session.execute(
                select(ResourcePost.resource_type, categories, ResourcePost.run_platform, func.count())
                .where(*where)
                .group_by(ResourcePost.resource_type, categories, ResourcePost.run_platform)
            )
            return [Combo(t, c, p, n) for t, c, p, n in rows]
        plain = session.execute(
            select(ResourcePost.resource_type, categories, func.count())
            .where(*where)
            .group_by(ResourcePost.resource_type, categories)
        )
        return [Combo(t, c, None, n) for t, c, n in plain]

    return cached(session, ("category_combos", section_code, by_platform), count)


def _category_counts(combos: Iterable[Combo], lineage: dict[str, set[str]]) -> Counter[str]:
    """Listed posts per category code, a post counted once per node, sub-categories included."""
    counts: Counter[str] = Counter()
    for combo in combos:
        nodes = set(lineage.get(combo.resource_type, ())) if combo.resource_type else set()
        for code in json.loads(combo.categories or "[]") or []:
            nodes |= lineage.get(code, set())
        for node in nodes:
            counts[node] += combo.posts
    return counts


def category_tree(session: Session, *, display: Display) -> list[CategoryNode]:
    """The category tree: top-level nodes with children nested, postCount over sub-categories."""
    categories = _categories(session)
    counts = _category_counts(_combo_counts(session), _ancestors(categories))
    nodes = {c.code: category_node(c, count=counts[c.code], display=display) for c in categories}
    roots: list[CategoryNode] = []
    for c in categories:
        parent = nodes.get(c.parent_code) if c.parent_code and c.parent_code != c.code else None
        (parent["children"] if parent else roots).append(nodes[c.code])
    return roots


def filter_options(session: Session, *, section_code: str) -> SectionFilterOptions:
    """SectionFilterOptionsVO: resource types, their categories and the run platforms in use."""
    get_section_or_raise(session, code=section_code)
    categories = _categories(session, section_code)
    combos = _combo_counts(session, by_platform=True, section_code=section_code)
    counts = _category_counts(combos, _ancestors(categories))
    by_platform: Counter[str] = Counter()
    for combo in combos:
        if combo.run_platform:
            by_platform[combo.run_platform] += combo.posts
    codes = {c.code for c in categories}
    types = [c for c in categories if c.parent_code is None or c.parent_code not in codes]
    type_codes = {c.code for c in types}
    seconds = [c for c in categories if c.parent_code in type_codes]
    platforms: Iterable[RunPlatform] = (
        session.scalars(
            select(RunPlatform)
            .where(RunPlatform.code.in_(list(by_platform)), RunPlatform.is_delete.is_(False))
            .order_by(RunPlatform.sort_order, RunPlatform.id)
        )
        if by_platform
        else []
    )
    return {
        "resourceTypes": [_option(c.id, c.code, c.name, None, counts[c.code]) for c in types],
        "mainCategories": [_option(c.id, c.code, c.name, c.parent_code, counts[c.code]) for c in seconds],
        "runPlatforms": [_option(p.id, p.code, p.name, None, by_platform[p.code]) for p in platforms],
    }


def _option(option_id: int, code: str, name: str, parent: str | None, count: int) -> FilterOption:
    return {"id": option_id, "code": code, "name": name, "parentCode": parent, "count": count}


# The copyright options of contentCopyrightId and resourceCopyrightId: fixed ids, the same on
# every server (id, code written to the text field, display name).
COPYRIGHTS = (
    (1, "CC-BY-4.0", "Creative Commons Attribution 4.0"),
    (2, "CC-BY-SA-4.0", "Creative Commons Attribution-ShareAlike 4.0"),
    (3, "CC-BY-NC-4.0", "Creative Commons Attribution-NonCommercial 4.0"),
    (4, "CC-BY-NC-SA-4.0", "Creative Commons Attribution-NonCommercial-ShareAlike 4.0"),
    (5, "CC0-1.0", "Creative Commons Zero 1.0 (public domain)"),
    (6, "MIT", "MIT License"),
    (7, "Apache-2.0", "Apache License 2.0"),
    (8, "GPL-3.0", "GNU General Public License 3.0"),
    (9, "LGPL-3.0", "GNU Lesser General Public License 3.0"),
    (10, "MPL-2.0", "Mozilla Public License 2.0"),
    (11, "ARR", "All rights reserved"),
)


def copyright_options() -> list[CopyrightOption]:
    """CopyrightOptionVO of every copyright option, by id."""
    return [{"id": i, "code": code, "name": name} for i, code, name in COPYRIGHTS]


def copyright_code(option_id: int) -> str | None:
    """The code of a copyright option, or None for an unknown id."""
    return next((code for i, code, _ in COPYRIGHTS if i == option_id), None)
