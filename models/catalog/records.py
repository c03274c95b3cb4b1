"""VO builders of the catalogue: ModSummaryVO, links, relations, comments, sections, run platforms
and category nodes (a row in, a dict out; no database access).
"""

from __future__ import annotations

from models.catalog.tables import Category, ResourceLink, ResourcePost, ResourceRelation, RunPlatform, Section
from models.catalog.vos import (
    AuthorBrief,
    CategoryNode,
    ModLink,
    ModSummary,
    Relation,
    RunPlatformVO,
    SectionVO,
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


def mod_summary(
    post: ResourcePost, *, display: Display, authors: list[AuthorBrief] | None = None
) -> ModSummary:
    """ModSummaryVO of a resource post (authors are AuthorBriefVO dicts, loaded by the caller)."""
    zone, cdn = display.time_zone, display.cdn_base_url
    return {
        "postId": post.id,
        "mainName": post.main_name,
        "subName": post.sub_name,
        "introduction": post.introduction,
        "abbrName": post.abbr_name,
        "coverImageUrl": display_url(post.cover_image, cdn),
        "detailUrl": detail_url(post.id, display.site_url),
        "sectionCode": post.section_code,
        "mainCategories": list(post.main_categories or [])[:5],
        "presetCategory": post.preset_category,
        "resourceType": post.resource_type,
        "runPlatform": post.run_platform,
        "clientEnvironment": post.client_environment,
        "serverEnvironment": post.server_environment,
        "clientInstallPath": post.client_install_path,
        "serverInstallPath": post.server_install_path,
        "serverInstallable": post.server_installable,
        "resourceVersion": post.resource_version,
        "resourceState": post.resource_state,
        "authors": authors or [],
        "isPaid": post.is_paid,
        "priceAmount": float(post.price_amount) if post.price_amount is not None else None,
        "priceCurrencyCode": post.price_currency_code,
        "viewsCount": post.views_count,
        "downloadCount": post.download_count,
        "likeCount": post.like_count,
        "collectionCount": post.collection_count,
        "commentCount": post.comment_count,
        "averageRating": post.average_rating,
        "ratingCount": post.rating_count,
        "publishTime": format_time(post.publish_time, zone),
        "updateTime": format_time(post.update_time, zone),
    }


def link_vo(link: ResourceLink) -> ModLink:
    """ModLinkVO of a link (the label defaults to the translated link type)."""
    return {
        "linkType": link.link_type,
        "url": link.url,
        "label": link.label or LINK_LABELS.get(link.link_type, link.link_type),
    }


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
