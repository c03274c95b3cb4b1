"""VO builders of the catalogue: ModSummaryVO, links, relations, comments, sections, run platforms
and category nodes (a row in, a dict out; no database access).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from models.catalog.tables import Category, ResourcePost, ResourceRelation, RunPlatform, Section
from models.catalog.vos import (
    AuthorBrief,
    CategoryNode,
    DetailFields,
    ModDetail,
    ModLink,
    ModSummary,
    Relation,
    RunPlatformVO,
    SectionVO,
    StatsBrief,
)
from modhub.core.display import Display, display_url, format_time

LINK_LABELS = {
    "HOMEPAGE": "主页 Homepage",
    "SOURCE": "源代码 Source",
    "WIKI": "百科 Wiki",
    "DISCORD": "Discord",
    "ISSUE_TRACKER": "问题反馈 Issues",
}


def detail_url(post_id: int, site_url: str) -> str:
    """Public page of a resource; empty when the site URL is not configured."""
    return f"{site_url}/resource/{post_id}" if site_url else ""


# The resource_post columns a ModSummaryVO is built from, in the order summary_vo reads them
# (models/catalog/reads.py selects them in this order; summary_values reads them off a post).
SUMMARY_FIELDS = (
    "id",
    "main_name",
    "sub_name",
    "introduction",
    "abbr_name",
    "cover_image",
    "section_code",
    "main_categories",
    "preset_category",
    "resource_type",
    "run_platform",
    "client_environment",
    "server_environment",
    "client_install_path",
    "server_install_path",
    "server_installable",
    "resource_version",
    "resource_state",
    "is_paid",
    "price_amount",
    "price_currency_code",
    "views_count",
    "download_count",
    "like_count",
    "collection_count",
    "comment_count",
    "rating_total",
    "rating_count",
    "publish_time",
    "update_time",
)
# The columns ModDetailVO adds, in the order detail_vo reads them (after SUMMARY_FIELDS).
DETAIL_FIELDS = (
    "content_copyright",
    "resource_copyright",
    "creation_type",
    "source_state",
    "ref_link",
    "visibility",
    "download_permission",
    "comment_permission",
    "post_version",
    "parent_post_id",
    "display_images",
    "enable_version_grouping",
)
SUMMARY_WIDTH, DETAIL_WIDTH = len(SUMMARY_FIELDS), len(SUMMARY_FIELDS) + len(DETAIL_FIELDS)


def summary_values(post: ResourcePost) -> tuple[Any, ...]:
    """The SUMMARY_FIELDS of a mapped post, in order (what summary_vo reads)."""
    return tuple(getattr(post, name) for name in SUMMARY_FIELDS)


def author_vo(
    user_id: int, user_name: str, avatar: str | None, role: str | None, display: Display
) -> AuthorBrief:
    """AuthorBriefVO of a user in a role."""
    return {"userId": user_id, "userName": user_name, "avatarUrl": display.url(avatar), "role": role}


def summary_vo(row: Sequence[Any], *, authors: list[AuthorBrief], display: Display) -> ModSummary:
    """ModSummaryVO of a row whose first columns are SUMMARY_FIELDS (more may follow), with its
    AuthorBriefVO list."""
    (
        post_id,
        main_name,
        sub_name,
        introduction,
        abbr_name,
        cover_image,
        section_code,
        main_categories,
        preset_category,
        resource_type,
        run_platform,
        client_environment,
        server_environment,
        client_install_path,
        server_install_path,
        server_installable,
        resource_version,
        resource_state,
        is_paid,
        price_amount,
        price_currency_code,
        views_count,
        download_count,
        like_count,
        collection_count,
        comment_count,
        rating_total,
        rating_count,
        publish_time,
        update_time,
    ) = row[:SUMMARY_WIDTH]
    zone = display.time_zone
    return {
        "postId": post_id,
        "mainName": main_name,
        "subName": sub_name,
        "introduction": introduction,
        "abbrName": abbr_name,
        "coverImageUrl": display_url(cover_image, display.cdn_base_url),
        "detailUrl": detail_url(post_id, display.site_url),
        "sectionCode": section_code,
        "mainCategories": list(main_categories or [])[:5],
        "presetCategory": preset_category,
        "resourceType": resource_type,
        "runPlatform": run_platform,
        "clientEnvironment": client_environment,
        "serverEnvironment": server_environment,
        "clientInstallPath": client_install_path,
        "serverInstallPath": server_install_path,
        "serverInstallable": server_installable,
        "resourceVersion": resource_version,
        "resourceState": resource_state,
        "authors": authors,
        "isPaid": is_paid,
        "priceAmount": float(price_amount) if price_amount is not None else None,
        "priceCurrencyCode": price_currency_code,
        "viewsCount": views_count,
        "downloadCount": download_count,
        "likeCount": like_count,
        "collectionCount": collection_count,
        "commentCount": comment_count,
        # ResourcePost.average_rating
        "averageRating": round(rating_total / rating_count, 2) if rating_count else 0.0,
        "ratingCount": rating_count,
        "publishTime": format_time(publish_time, zone),
        "updateTime": format_time(update_time, zone),
    }


def mod_summary(
    post: ResourcePost, *, display: Display, authors: list[AuthorBrief] | None = None
) -> ModSummary:
    """ModSummaryVO of a resource post (authors are AuthorBriefVO dicts, loaded by the caller)."""
    return summary_vo(summary_values(post), authors=authors or [], display=display)


def detail_vo(
    row: Sequence[Any],
    *,
    authors: list[AuthorBrief],
    links: list[ModLink],
    stats: StatsBrief,
    display: Display,
) -> ModDetail:
    """ModDetailVO of a row whose first columns are SUMMARY_FIELDS then DETAIL_FIELDS, with its
    authors, ModLinkVO list and statistics (OpenApiStatsBriefVO)."""
    (
        content_copyright,
        resource_copyright,
        creation_type,
        source_state,
        ref_link,
        visibility,
        download_permission,
        comment_permission,
        post_version,
        parent_post_id,
        display_images,
        enable_version_grouping,
    ) = row[SUMMARY_WIDTH:DETAIL_WIDTH]
    cdn = display.cdn_base_url
    fields: DetailFields = {
        "contentCopyright": content_copyright,
        "resourceCopyright": resource_copyright,
        "creationType": creation_type,
        "sourceState": source_state,
        "refLink": ref_link,
        "visibility": visibility,
        "downloadPermission": download_permission,
        "commentPermission": comment_permission,
        "postVersion": post_version,
        "parentPostId": parent_post_id,
        "displayImages": [display_url(i, cdn) for i in (display_images or [])[:5]],
        "links": links,
        "stats": stats,
        "enableVersionGrouping": enable_version_grouping,
    }
    return {**summary_vo(row, authors=authors, display=display), **fields}


def link_vo(link_type: str, url: str, label: str | None) -> ModLink:
    """ModLinkVO of a link (the label defaults to the translated link type)."""
    return {"linkType": link_type, "url": url, "label": label or LINK_LABELS.get(link_type, link_type)}


def relation_vo(rel: ResourceRelation) -> Relation:
    """RelationVO of a relation (target left null: fetch targets with the batch operation)."""
    return {
        "relationType": rel.relation_type,
        "targetPostId": rel.target_post_id,
        "target": None,
        "isRequired": rel.is_required,
        "sortOrder": rel.sort_order,
        "dataSource": rel.data_source,
    }


def section_vo(section: Section, *, post_count: int, display: Display) -> SectionVO:
    """SectionVO of a section."""
    return {
        "sectionId": section.id,
        "sectionCode": section.code,
        "description": section.description,
        "englishName": section.english_name,
        "parentCode": section.parent_code,
        "iconUrl": display.url(section.icon),
        "sortOrder": section.sort_order,
        "enable": section.enable,
        "serverPostEnabled": section.server_post_enabled,
        "resourcePostEnabled": section.resource_post_enabled,
        "resourcePostCount": post_count,
    }


def run_platform_vo(platform: RunPlatform, *, display: Display) -> RunPlatformVO:
    """RunPlatformVO of a run platform."""
    return {
        "infoId": platform.id,
        "code": platform.code,
        "name": platform.name,
        "description": platform.description,
        "iconUrl": display.url(platform.icon),
        "enable": platform.enable,
    }


def category_node(category: Category, *, count: int, display: Display) -> CategoryNode:
    """CategoryNodeVO of a category (children filled by the tree builder)."""
    return {
        "id": category.id,
        "categoryCode": category.code,
        "name": category.name,
        "description": category.description,
        "iconUrl": display.url(category.icon),
        "parentCode": category.parent_code,
        "children": [],
        "postCount": count,
    }
