"""The shapes of the catalogue's records (TypedDicts; keys and value types as the builders in
records.py, service.py, stats.py, taxonomy.py and lifecycle.py write them, named after the
contract's VO schemas). No behaviour: a dict with these keys is what the handlers answer.
"""

from __future__ import annotations

from typing import TypedDict

# Every counter of OpenApiStatsBriefVO ({views,downloads,collects}Last{24h,7d,30d}), built from
# the time windows of stats.py.
StatsBrief = dict[str, int]


class AuthorBrief(TypedDict):
    """AuthorBriefVO."""

    userId: int
    userName: str
    avatarUrl: str | None
    role: str | None


class ModSummary(TypedDict):
    """ModSummaryVO."""

    postId: int
    mainName: str
    subName: str | None
    introduction: str | None
    abbrName: str | None
    coverImageUrl: str | None
    detailUrl: str
    sectionCode: str
    mainCategories: list[str]
    presetCategory: str | None
    resourceType: str | None
    runPlatform: str | None
    clientEnvironment: str
    serverEnvironment: str
    clientInstallPath: str | None
    serverInstallPath: str | None
    serverInstallable: bool | None
    resourceVersion: str | None
    resourceState: str
    authors: list[AuthorBrief]
    isPaid: bool
    priceAmount: float | None
    priceCurrencyCode: str | None
    viewsCount: int
    downloadCount: int
    likeCount: int
    collectionCount: int
    commentCount: int
    averageRating: float
    ratingCount: int
    publishTime: str | None
    updateTime: str


class ResourceSnapshot(ModSummary):
    """The payload of resource.* webhook events: ModSummaryVO plus the title (the main name)."""

    title: str


class ModLink(TypedDict):
    """ModLinkVO."""

    linkType: str
    url: str
    label: str


class DetailFields(TypedDict):
    """The fields ModDetailVO adds to ModSummaryVO."""

    contentCopyright: str | None
    resourceCopyright: str | None
    creationType: str | None
    sourceState: str | None
    refLink: str | None
    visibility: str
    downloadPermission: str
    commentPermission: str
    postVersion: int
    parentPostId: int | None
    displayImages: list[str | None]
    links: list[ModLink]
    stats: StatsBrief | None
    enableVersionGrouping: bool | None


class ModDetail(ModSummary, DetailFields):
    """ModDetailVO."""


class ModDescription(TypedDict):
    """ModDescriptionVO."""

    postId: int
    content: str | None
    mdContent: str | None
    updateTime: str | None


class RatingAggregate(TypedDict):
    """RatingAggregateVO."""

    averageScore: float
    totalCount: int
    starDistribution: dict[str, int]


class Relation(TypedDict):
    """RelationVO (target is left null: clients fetch targets with the batch operation)."""

    relationType: str
    targetPostId: int
    target: ModSummary | None
    isRequired: bool
    sortOrder: int
    dataSource: str


class PostRelations(TypedDict):
    """One entry of the relations batch: a listed resource's RelationVO list."""

    postId: int
    relations: list[Relation]


class Version(TypedDict):
    """VersionVO."""

    postId: int
    versionNumber: int
    resourceVersion: str | None
    updateCommit: str | None
    publishTime: str | None


class ResourceStats(TypedDict):
    """ResourceStatsDetailVO."""

    postId: int
    totalViews: int
    totalDownloads: int
    totalLikes: int
    totalCollects: int
    totalComments: int
    averageRating: float


class SectionStats(TypedDict):
    """SectionStatsVO."""

    sectionCode: str
    postCount: int
    totalViews: int
    totalDownloads: int
    totalLikes: int
    totalCollects: int


class ForumStats(TypedDict):
    """OpenApiForumStatsVo (totalDiscussPosts is not counted by this service)."""

    totalResourcePosts: int
    totalDiscussPosts: int | None
    totalServerPosts: int
    totalUsers: int
    todayNewPosts: int
    statsTime: str | None


class SectionVO(TypedDict):
    """SectionVO."""

    sectionId: int
    sectionCode: str
    description: str
    englishName: str | None
    parentCode: str | None
    iconUrl: str | None
    sortOrder: int
    enable: bool
    serverPostEnabled: bool
    resourcePostEnabled: bool
    resourcePostCount: int


class RunPlatformVO(TypedDict):
    """RunPlatformVO."""

    infoId: int
    code: str
    name: str
    description: str | None
    iconUrl: str | None
    enable: bool


class CategoryNode(TypedDict):
    """CategoryNodeVO, with its sub-categories nested."""

    id: int
    categoryCode: str
    name: str
    description: str | None
    iconUrl: str | None
    parentCode: str | None
    children: list[CategoryNode]
    postCount: int


class FilterOption(TypedDict):
    """One option of SectionFilterOptionsVO."""

    id: int
    code: str
    name: str | None
    parentCode: str | None
    count: int


class SectionFilterOptions(TypedDict):
    """SectionFilterOptionsVO."""

    resourceTypes: list[FilterOption]
    mainCategories: list[FilterOption]
    runPlatforms: list[FilterOption]


class CopyrightOption(TypedDict):
    """CopyrightOptionVO."""

    id: int
    code: str
    name: str


class ServerSnapshot(TypedDict):
    """The payload of server.status.* webhook events."""

    postId: int
    title: str
    mainName: str
    sectionCode: str
    serverIp: str | None
    serverPort: int | None
    serverStatus: str
    currentPlayers: int
    maxPlayers: int
    lastHeartbeatTime: str | None
    updateTime: str | None
