# ruff: noqa: E501
# fmt: off
"""Models of the modhub Open API contract 1.0.0, generated from openapi/openapi.yaml by
sdk/python/scripts/generate_models.py: do not edit by hand (tests/test_models.py fails on drift)."""

from __future__ import annotations

from typing import Any, Literal, TypedDict

CONTRACT_VERSION = "1.0.0"


class _AuthorBriefVORequired(TypedDict):
    """Required keys of AuthorBriefVO."""
    userId: int


class AuthorBriefVO(_AuthorBriefVORequired, total=False):
    """An author of a resource."""
    userName: str | None
    avatarUrl: str | None
    role: Literal['OWNER', 'COLLABORATOR', 'CONTRIBUTOR'] | None


class BaseDownloadAuthParam(TypedDict, total=False):
    """Download authorization request."""
    fileInfoId: int | None
    proxyUserId: int | None


class _BaseOpenApiCommentPublishParamRequired(TypedDict):
    """Required keys of BaseOpenApiCommentPublishParam."""
    entityType: Literal['DISCUSS_POST', 'QUESTION_POST', 'USER_MOMENT', 'RESOURCE_POST']
    entityId: int
    content: str


class BaseOpenApiCommentPublishParam(_BaseOpenApiCommentPublishParamRequired, total=False):
    """Comment or reply to publish."""
    parentCommentId: int | None
    mentionedUserIds: list[int] | None


class BaseOpenApiFollowParam(TypedDict):
    """Follow toggle request."""
    targetUserId: int


class _BaseOpenApiInitDraftParamRequired(TypedDict):
    """Required keys of BaseOpenApiInitDraftParam."""
    sectionCode: str
    resourceTypeId: int
    categoryId: str


class BaseOpenApiInitDraftParam(_BaseOpenApiInitDraftParamRequired, total=False):
    """New draft request."""
    title: str | None
    presetCategory: Literal['SAVE_GAME', 'CHALLENGE_CONFIG', 'GRAPHICS_PRESET'] | None


class BaseOpenApiInteractionParam(TypedDict):
    """Target of a like or collect toggle."""
    entityType: Literal['DISCUSS_POST', 'QUESTION_POST', 'USER_MOMENT', 'RESOURCE_POST', 'POST_COMMENT']
    entityId: int


class BaseOpenApiMessageSendParam(TypedDict):
    """Private message to send."""
    toUserId: int
    content: str


class BaseOpenApiResourceFileInfoLogParam(TypedDict, total=False):
    """One change-log entry of a file being saved."""
    infoId: int | None
    logVersion: str | None
    mdContent: str | None
    logType: str | None


class BaseOpenApiResourceFileInfoParam(TypedDict, total=False):
    """A file of a resource being saved."""
    infoId: int | None
    resourcePostId: int | None
    infoTitle: str | None
    fileVersion: str | None
    fileStatus: str | None
    runPlatform: str | None
    runPlatformName: str | None
    runPlatformIconUrl: str | None
    resourceVersion: list[str] | None
    resourceVersionNames: list[str] | None
    downInfo: str | None
    directFileId: str | None
    directFileUrl: str | None
    directFileName: str | None
    directFileSize: int | None
    logs: list[BaseOpenApiResourceFileInfoLogParam] | None


class BaseOpenApiResourceRelateParam(TypedDict, total=False):
    """A person related to a resource."""
    actualName: str | None
    avatar: str | None
    positionType: str | None
    userId: int | None
    createTime: str | None


class BaseOpenApiResourceSaveParam(TypedDict, total=False):
    """Resource content to save, publish or edit. Nothing is mandatory for saving a draft; ..."""
    postId: int | None
    mainName: str | None
    subName: str | None
    mainCategory: str | None
    presetCategory: Literal['SAVE_GAME', 'CHALLENGE_CONFIG', 'GRAPHICS_PRESET'] | None
    abbrName: str | None
    introduction: str | None
    coverFileId: str | None
    mdContent: str | None
    content: str | None
    sectionCode: str | None
    gameTypeId: int | None
    resourceTypeId: int | None
    runPlatformId: int | None
    contentCopyrightId: int | None
    contentCopyright: str | None
    resourceCopyrightId: int | None
    resourceCopyright: str | None
    resourceVersion: str | None
    authors: str | None
    postTags: list[str] | None
    postTypeId: str | None
    clientEnvironment: Literal['REQUIRED', 'OPTIONAL', 'NO_NEED', 'UNKNOWN'] | None
    serverEnvironment: Literal['REQUIRED', 'OPTIONAL', 'NO_NEED', 'UNKNOWN'] | None
    resourceState: Literal['ACTIVE', 'SEMI_ABANDONED', 'ABANDONED', 'UNKNOWN'] | None
    sourceState: Literal['OPEN', 'CLOSED', 'UNKNOWN'] | None
    relation: ResourceRelationParam
    installScript: str | None
    creationType: str | None
    refLink: str | None
    resourceRelate: list[BaseOpenApiResourceRelateParam] | None
    resourceFileInfoVos: list[BaseOpenApiResourceFileInfoParam] | None
    images: list[str] | None
    tempId: str | None
    updateCommit: str | None
    rewardEnabled: bool | None
    visibility: Literal['PUBLIC', 'PRIVATE'] | None
    isPaid: bool | None
    priceCurrencyCode: str | None
    priceAmount: float | None
    isAllEdit: bool | None
    memberEnabled: bool | None
    isNewDraft: bool | None
    parentPostId: int | None
    postVersion: int | None


class _BaseOpenApiServerPostLobbyPublishParamRequired(TypedDict):
    """Required keys of BaseOpenApiServerPostLobbyPublishParam."""
    postTitle: str
    mainName: str
    sectionCode: str
    serverIp: str
    serverPort: int


class BaseOpenApiServerPostLobbyPublishParam(_BaseOpenApiServerPostLobbyPublishParamRequired, total=False):
    """Lobby post to publish or update."""
    serverPassword: str | None
    maxPlayers: int | None
    serverVersion: list[str] | None
    mainPlayType: str | None
    serverType: str | None
    runPlatform: str | None
    queryType: str | None
    coverImageUrl: str | None
    mdContent: str | None
    onlineType: str | None
    isReqDownClient: bool | None
    resources: list[BaseOpenApiServerPostLobbyResourceItemParam] | None


class BaseOpenApiServerPostLobbyReserveBatchParam(TypedDict):
    """Reserve batch request."""
    items: list[BaseOpenApiServerPostLobbyReserveItemParam]


class _BaseOpenApiServerPostLobbyReserveItemParamRequired(TypedDict):
    """Required keys of BaseOpenApiServerPostLobbyReserveItemParam."""
    sha256: str
    sizeBytes: int
    name: str
    clientInstallPath: str
    resourceType: str


class BaseOpenApiServerPostLobbyReserveItemParam(_BaseOpenApiServerPostLobbyReserveItemParamRequired, total=False):
    """One file to reserve."""
    version: str | None
    environmentSide: str | None
    extraJson: str | None


class _BaseOpenApiServerPostLobbyResourceItemParamRequired(TypedDict):
    """Required keys of BaseOpenApiServerPostLobbyResourceItemParam."""
    source: Literal['COMMUNITY', 'BUILTIN', 'USER_UPLOAD']


class BaseOpenApiServerPostLobbyResourceItemParam(_BaseOpenApiServerPostLobbyResourceItemParamRequired, total=False):
    """One resource of a lobby post."""
    communityPostId: int | None
    communityFileId: int | None
    resourceType: str | None
    name: str | None
    version: str | None
    environmentSide: Literal['SERVER', 'CLIENT', 'BOTH'] | None
    clientInstallPath: str | None
    sizeBytes: int | None
    sha256: str | None
    downloadUrl: str | None
    downloadUrlExpiresAt: str | None
    extraJson: str | None


class CategoryNodeVO(TypedDict, total=False):
    """A category node."""
    id: int
    categoryCode: str | None
    name: str | None
    description: str | None
    iconUrl: str | None
    parentCode: str | None
    children: list[CategoryNodeVO] | None
    postCount: int | None


class _CommentVORequired(TypedDict):
    """Required keys of CommentVO."""
    commentId: int


class CommentVO(_CommentVORequired, total=False):
    """A comment or reply."""
    userId: int | None
    userName: str | None
    avatarUrl: str | None
    content: str | None
    parentId: int | None
    replyCount: int | None
    likeCount: int | None
    createTime: str | None


class _CommunityAnswerVORequired(TypedDict):
    """Required keys of CommunityAnswerVO."""
    answerId: int


class CommunityAnswerVO(_CommunityAnswerVORequired, total=False):
    """An answer to a question."""
    questionId: int | None
    parentAnswerId: int | None
    authorId: int | None
    authorName: str | None
    authorAvatarUrl: str | None
    content: str | None
    mdContent: str | None
    isAccepted: bool | None
    upvoteCount: int | None
    downvoteCount: int | None
    voteScore: int | None
    commentCount: int | None
    createTime: str | None


class _CommunityFollowUserVORequired(TypedDict):
    """Required keys of CommunityFollowUserVO."""
    userId: int


class CommunityFollowUserVO(_CommunityFollowUserVORequired, total=False):
    """A follower or followed user."""
    nickname: str | None
    avatarUrl: str | None
    bio: str | None
    followTime: str | None


class _CommunityMomentVORequired(TypedDict):
    """Required keys of CommunityMomentVO."""
    momentId: int


class CommunityMomentVO(_CommunityMomentVORequired, total=False):
    """A user moment (short status post)."""
    userId: int | None
    userName: str | None
    avatarUrl: str | None
    momentType: Literal['TEXT', 'IMAGE', 'SHARE'] | None
    content: str | None
    likeCount: int | None
    commentCount: int | None
    collectCount: int | None
    viewCount: int | None
    createTime: str | None


class _CommunityPostDetailVORequired(TypedDict):
    """Required keys of CommunityPostDetailVO."""
    postId: int


class CommunityPostDetailVO(_CommunityPostDetailVORequired, total=False):
    """A discussion post in a list."""
    title: str | None
    sectionCode: str | None
    authorId: int | None
    authorName: str | None
    authorAvatarUrl: str | None
    summary: str | None
    viewsCount: int | None
    likeCount: int | None
    commentCount: int | None
    collectionCount: int | None
    publishTime: str | None
    updateTime: str | None
    content: str | None
    mdContent: str | None


class _CommunityPostSummaryVORequired(TypedDict):
    """Required keys of CommunityPostSummaryVO."""
    postId: int


class CommunityPostSummaryVO(_CommunityPostSummaryVORequired, total=False):
    """A discussion post in a list."""
    title: str | None
    sectionCode: str | None
    authorId: int | None
    authorName: str | None
    authorAvatarUrl: str | None
    summary: str | None
    viewsCount: int | None
    likeCount: int | None
    commentCount: int | None
    collectionCount: int | None
    publishTime: str | None
    updateTime: str | None


class _CommunityQuestionVORequired(TypedDict):
    """Required keys of CommunityQuestionVO."""
    postId: int


class CommunityQuestionVO(_CommunityQuestionVORequired, total=False):
    """A question post."""
    title: str | None
    sectionCode: str | None
    authorId: int | None
    authorName: str | None
    authorAvatarUrl: str | None
    questionStatus: Literal['OPEN', 'RESOLVED', 'CLOSED'] | None
    isResolved: bool | None
    acceptedAnswerId: int | None
    voteScore: int | None
    difficulty: int | None
    tags: list[str] | None
    rewardAmount: float | None
    rewardCurrency: str | None
    viewsCount: int | None
    commentCount: int | None
    content: str | None
    mdContent: str | None
    publishTime: str | None
    updateTime: str | None


class _CommunityUserProfileVORequired(TypedDict):
    """Required keys of CommunityUserProfileVO."""
    userId: int


class CommunityUserProfileVO(_CommunityUserProfileVORequired, total=False):
    """Public profile of a user."""
    nickname: str | None
    avatarUrl: str | None
    coverImageUrl: str | None
    bio: str | None
    location: str | None
    gender: str | None
    equippedTitleId: int | None
    avatarFrameId: int | None
    followingCount: int | None
    followerCount: int | None


class CopyrightOptionVO(TypedDict):
    """A copyright (licence) option of resources (extension)."""
    id: int
    code: str
    name: str


class _DependencyRequired(TypedDict):
    """Required keys of Dependency."""
    resourcePostId: int


class Dependency(_DependencyRequired, total=False):
    """A dependency of a resource (one of its DEPENDENCY relations)."""
    name: str | None
    required: bool | None
    versionRequirement: str | None


class _DownloadAuthVoRequired(TypedDict):
    """Required keys of DownloadAuthVo."""
    fileInfoId: int


class DownloadAuthVo(_DownloadAuthVoRequired, total=False):
    """Temporary download authorization for an on-site file."""
    fileTitle: str | None
    fileVersion: str | None
    resourceVersion: str | None
    runPlatform: str | None
    downloadInfos: list[DownloadInfo] | None
    deniedReason: Literal['DOWNLOAD_USER_REQUIRED', 'ENTITLEMENT_REQUIRED'] | None


class _DownloadFailureReportParamRequired(TypedDict):
    """Required keys of DownloadFailureReportParam."""
    fingerprint: str
    errorType: Literal['HTTP_ERROR', 'TIMEOUT', 'CHECKSUM_MISMATCH', 'NOT_FOUND', 'CONNECTION_ERROR', 'OTHER']


class DownloadFailureReportParam(_DownloadFailureReportParamRequired, total=False):
    """A download failure report."""
    fileInfoId: int | None
    httpStatus: int | None
    downloadUrl: str | None
    message: str | None
    count: int | None
    clientVersion: str | None


class DownloadInfo(TypedDict, total=False):
    """One way to obtain a file."""
    storageType: Literal['DIRECT_UPLOAD', 'DIRECT_LINK', 'CLOUD_DISK'] | None
    name: str | None
    url: str | None
    fileName: str | None
    fileSize: int | None
    sha256: str | None
    extractCode: str | None
    expiresAt: str | None


class DraftFileVO(TypedDict):
    """A file uploaded for drafts (extension)."""
    fileId: str
    fileName: str
    size: int
    sha256: str


class FileDetailVOHashes(TypedDict, total=False):
    """Digests of the stored bytes, computed while they were stored (lower-case hex); null ..."""
    sha1: str | None
    sha256: str
    sha512: str | None


class _FileDetailVORequired(TypedDict):
    """Required keys of FileDetailVO."""
    fileInfoId: int


class FileDetailVO(_FileDetailVORequired, total=False):
    """A downloadable file of a resource. Batch answers put null (not a record) at the ..."""
    postId: int | None
    fileTitle: str | None
    fileName: str | None
    fileVersion: str | None
    resourceVersions: list[str] | None
    runPlatform: str | None
    runPlatformName: str | None
    environmentSide: Literal['SERVER', 'CLIENT', 'BOTH'] | None
    storageType: Literal['DIRECT_UPLOAD', 'DIRECT_LINK', 'CLOUD_DISK'] | None
    fileSize: int | None
    sha256: str | None
    fileStatus: str | None
    downloadCount: int | None
    fingerprint: str | None
    hashes: FileDetailVOHashes | None
    publishTime: str | None
    updateTime: str | None
    downInfo: list[DownloadInfo] | None
    logs: list[FileLogVO] | None


class _FileDownloadUrlVORequired(TypedDict):
    """Required keys of FileDownloadUrlVO."""
    fileInfoId: int


class FileDownloadUrlVO(_FileDownloadUrlVORequired, total=False):
    """The original external link of a file: the file's one external URL, identical in ..."""
    postId: int | None
    storageType: Literal['DIRECT_UPLOAD', 'DIRECT_LINK', 'CLOUD_DISK'] | None
    url: str | None
    fileName: str | None
    expiresAt: str | None


class FileHashLookupParam(TypedDict):
    """Hashes to identify (extension)."""
    algorithm: Literal['sha1', 'sha256', 'sha512']
    hashes: list[str]


class FileHashMatchVO(TypedDict):
    """A file identified by its hash, with its resource (extension)."""
    hash: str
    file: FileSummaryVO
    mod: ModSummaryVO


class FileLogVO(TypedDict, total=False):
    """One change-log entry of a file."""
    logVersion: str | None
    logType: str | None
    mdContent: str | None


class FileSummaryVOHashes(TypedDict, total=False):
    """Digests of the stored bytes, computed while they were stored (lower-case hex); null ..."""
    sha1: str | None
    sha256: str
    sha512: str | None


class _FileSummaryVORequired(TypedDict):
    """Required keys of FileSummaryVO."""
    fileInfoId: int


class FileSummaryVO(_FileSummaryVORequired, total=False):
    """A downloadable file of a resource. Batch answers put null (not a record) at the ..."""
    postId: int | None
    fileTitle: str | None
    fileName: str | None
    fileVersion: str | None
    resourceVersions: list[str] | None
    runPlatform: str | None
    runPlatformName: str | None
    environmentSide: Literal['SERVER', 'CLIENT', 'BOTH'] | None
    storageType: Literal['DIRECT_UPLOAD', 'DIRECT_LINK', 'CLOUD_DISK'] | None
    fileSize: int | None
    sha256: str | None
    fileStatus: str | None
    downloadCount: int | None
    fingerprint: str | None
    hashes: FileSummaryVOHashes | None
    publishTime: str | None
    updateTime: str | None


class FileUpdateVO(TypedDict):
    """The update state of one installed file, and its newest matching file (extension)."""
    hash: str
    status: Literal['UNKNOWN_HASH', 'NO_MATCHING_FILE', 'UP_TO_DATE', 'UPDATE_AVAILABLE']
    installedFileInfoId: int | None
    upToDate: bool
    file: FileSummaryVO | None


class _FileUpdatesParamRequired(TypedDict):
    """Required keys of FileUpdatesParam."""
    algorithm: Literal['sha1', 'sha256', 'sha512']
    hashes: list[str]
    gameVersion: str


class FileUpdatesParam(_FileUpdatesParamRequired, total=False):
    """Installed files and the installation they run in (extension)."""
    runPlatform: str
    environmentSide: Literal['CLIENT', 'SERVER']


class _FilterOptionVORequired(TypedDict):
    """Required keys of FilterOptionVO."""
    code: str


class FilterOptionVO(_FilterOptionVORequired, total=False):
    """One filter option."""
    id: int
    name: str | None
    parentCode: str | None
    count: int | None


class _FullTextSearchResultVoRequired(TypedDict):
    """Required keys of FullTextSearchResultVo."""
    entityType: Literal['RESOURCE_POST', 'DISCUSS_POST', 'QUESTION_POST', 'QUESTION_ANSWER', 'USER_MOMENT']
    entityId: int


class FullTextSearchResultVo(_FullTextSearchResultVoRequired, total=False):
    """One full-text search hit."""
    questionId: int | None
    title: str | None
    snippet: str | None
    sectionCode: str | None
    authorId: int | None
    authorName: str | None
    coverImageUrl: str | None
    score: float | None
    publishTime: str | None


class _GameStartupCommandReportParamRequired(TypedDict):
    """Required keys of GameStartupCommandReportParam."""
    command: str
    origin: Literal['SUGGESTED', 'USER_EDITED', 'LAUNCHER', 'AUTO_DETECTED']


class GameStartupCommandReportParam(_GameStartupCommandReportParamRequired, total=False):
    """Report of the startup command finally used."""
    memoryMb: int | None
    javaVersion: str | None
    gameVersion: str | None
    success: bool | None
    clientVersion: str | None


class _GameStartupCommandVoRequired(TypedDict):
    """Required keys of GameStartupCommandVo."""
    postId: int


class GameStartupCommandVo(_GameStartupCommandVoRequired, total=False):
    """Suggested game startup command for a machine."""
    memoryMb: int | None
    heapMinMb: int | None
    heapMaxMb: int | None
    javaVersion: str | None
    runPlatform: str | None
    jvmArguments: list[str] | None
    loaderArguments: list[str] | None
    command: str | None
    source: str | None


class _InstallConfigVoRequired(TypedDict):
    """Required keys of InstallConfigVo."""
    postId: int


class InstallConfigVo(_InstallConfigVoRequired, total=False):
    """Install configuration: the parsed install script plus basic resource fields."""
    fileInfoId: int | None
    mainName: str | None
    sectionCode: str | None
    resourceType: str | None
    runPlatform: str | None
    resourceVersion: str | None
    clientEnvironment: Literal['REQUIRED', 'OPTIONAL', 'NO_NEED', 'UNKNOWN'] | None
    serverEnvironment: Literal['REQUIRED', 'OPTIONAL', 'NO_NEED', 'UNKNOWN'] | None
    clientInstallPath: str | None
    serverInstallPath: str | None
    installScript: str | None
    scriptDocument: InstallScript | None
    dependencies: list[Dependency] | None
    preChecks: list[PreCheck] | None
    postActions: list[PostAction] | None
    serverPackLayout: ServerPackLayout
    files: list[InstallFileInfo] | None


class _InstallFileInfoRequired(TypedDict):
    """Required keys of InstallFileInfo."""
    fileInfoId: int


class InstallFileInfo(_InstallFileInfoRequired, total=False):
    """A file as seen by an installer."""
    index: int | None
    fileName: str | None
    fileSize: int | None
    sha256: str | None
    storageType: Literal['DIRECT_UPLOAD', 'DIRECT_LINK', 'CLOUD_DISK'] | None
    downloadUrl: str | None
    downloadUrlExpiresAt: str | None
    resourceVersions: list[str] | None
    runPlatform: str | None
    environmentSide: Literal['SERVER', 'CLIENT', 'BOTH'] | None


class _InstallLaunchVoRequired(TypedDict):
    """Required keys of InstallLaunchVo."""
    postId: int


class InstallLaunchVo(_InstallLaunchVoRequired, total=False):
    """How to hand a resource over to the platform client."""
    deeplink: str | None
    fallbackUrl: str | None
    clientDownloadUrl: str | None
    detectProcessNames: list[str] | None
    detectPaths: list[str] | None
    guide: str | None


class InstallScriptPreChecksItem(TypedDict, total=False):
    """A check before installing (install-config's PreCheck)."""
    type: str
    condition: str
    failMessage: str


class InstallScriptPostActionsItem(TypedDict, total=False):
    """An action after installing (install-config's PostAction)."""
    type: str
    params: dict[str, Any]


class _InstallScriptRequired(TypedDict):
    """Required keys of InstallScript."""
    steps: list[InstallScriptStep]


class InstallScript(_InstallScriptRequired, total=False):
    """The format of an install script (extension: the service spec leaves it open): the JSON ..."""
    source: Literal['AUTHOR', 'AI']
    summary: str
    files: list[int]
    dependencies: list[InstallScriptDependency]
    preChecks: list[InstallScriptPreChecksItem]
    postActions: list[InstallScriptPostActionsItem]
    serverPackLayout: dict[str, Any]

InstallScriptCopyStep = TypedDict('InstallScriptCopyStep', {'action': "Literal['copy']", 'from': 'InstallScriptFileRef', 'to': 'InstallScriptPath'}, total=True)


class InstallScriptDeleteStep(TypedDict):
    """Remove a file or directory (recursively) if it exists, e.g. the jar of an older version."""
    action: Literal['delete']
    path: InstallScriptPath


class _InstallScriptDependencyRequired(TypedDict):
    """Required keys of InstallScriptDependency."""
    resourcePostId: int


class InstallScriptDependency(_InstallScriptDependencyRequired, total=False):
    """A version requirement on one of the resource's dependencies."""
    versionRequirement: str
    name: str
    required: bool

_InstallScriptExtractStepRequired = TypedDict('_InstallScriptExtractStepRequired', {'action': "Literal['extract']", 'from': 'InstallScriptFileRef', 'to': 'InstallScriptPath'}, total=True)


class InstallScriptExtractStep(_InstallScriptExtractStepRequired, total=False):
    """Unpack a zip archive of the resource into a directory, dropping the first ..."""
    stripComponents: int

InstallScriptFileRef = str


class InstallScriptMkdirStep(TypedDict):
    """Create a directory (and its parents) if it does not exist."""
    action: Literal['mkdir']
    path: InstallScriptPath

InstallScriptPath = str

InstallScriptStep = InstallScriptCopyStep | InstallScriptExtractStep | InstallScriptDeleteStep | InstallScriptMkdirStep


class JsonWebKey(TypedDict):
    """One RSA public key (RFC 7517, RFC 7518 section 6.3.1) (extension)."""
    kid: str
    kty: Literal['RSA']
    n: str
    e: str
    use: Literal['sig']
    alg: Literal['RS256']


class JsonWebKeySet(TypedDict):
    """A JSON Web Key Set (RFC 7517 section 5) of the install-script keys (extension)."""
    keys: list[JsonWebKey]

LegacyFileObject = dict[str, Any]

LegacyPostObject = dict[str, Any] | None

LegacyResourceObject = dict[str, Any]

LegacyTagObject = dict[str, Any]


class _MessageVORequired(TypedDict):
    """Required keys of MessageVO."""
    messageId: int


class MessageVO(_MessageVORequired, total=False):
    """A notification of the proxy user."""
    messageType: str | None
    title: str | None
    content: str | None
    senderId: int | None
    senderName: str | None
    senderAvatarUrl: str | None
    entityType: Literal['DISCUSS_POST', 'QUESTION_POST', 'USER_MOMENT', 'RESOURCE_POST', 'POST_COMMENT'] | None
    entityId: int | None
    readFlag: bool | None
    createTime: str | None


class _ModDescriptionVORequired(TypedDict):
    """Required keys of ModDescriptionVO."""
    postId: int


class ModDescriptionVO(_ModDescriptionVORequired, total=False):
    """Full description of a resource, kept apart from the detail so that details stay small."""
    content: str | None
    mdContent: str | None
    updateTime: str | None


class _ModDetailVORequired(TypedDict):
    """Required keys of ModDetailVO."""
    postId: int


class ModDetailVO(_ModDetailVORequired, total=False):
    """Resource summary. Batch answers put null (not a record) at the position of an unknown id."""
    mainName: str | None
    subName: str | None
    introduction: str | None
    abbrName: str | None
    coverImageUrl: str | None
    detailUrl: str | None
    sectionCode: str | None
    mainCategories: list[str] | None
    presetCategory: str | None
    resourceType: str | None
    runPlatform: str | None
    clientEnvironment: Literal['REQUIRED', 'OPTIONAL', 'NO_NEED', 'UNKNOWN'] | None
    serverEnvironment: Literal['REQUIRED', 'OPTIONAL', 'NO_NEED', 'UNKNOWN'] | None
    clientInstallPath: str | None
    serverInstallPath: str | None
    serverInstallable: bool | None
    resourceVersion: str | None
    resourceState: Literal['ACTIVE', 'SEMI_ABANDONED', 'ABANDONED', 'UNKNOWN'] | None
    authors: list[AuthorBriefVO] | None
    isPaid: bool | None
    priceAmount: float | None
    priceCurrencyCode: str | None
    viewsCount: int | None
    downloadCount: int | None
    likeCount: int | None
    collectionCount: int | None
    commentCount: int | None
    averageRating: float | None
    ratingCount: int | None
    publishTime: str | None
    updateTime: str | None
    contentCopyright: str | None
    resourceCopyright: str | None
    creationType: str | None
    sourceState: Literal['OPEN', 'CLOSED', 'UNKNOWN'] | None
    refLink: str | None
    visibility: Literal['PUBLIC', 'PRIVATE', 'FOLLOWERS'] | None
    downloadPermission: Literal['PUBLIC', 'REGISTERED', 'MEMBERS'] | None
    commentPermission: Literal['EVERYONE', 'REGISTERED', 'MEMBERS', 'DISABLED'] | None
    postVersion: int | None
    parentPostId: int | None
    displayImages: list[str] | None
    links: list[ModLinkVO] | None
    stats: OpenApiStatsBriefVO
    enableVersionGrouping: bool | None


class ModLinkVO(TypedDict, total=False):
    """A structured external link of a resource."""
    linkType: str | None
    url: str | None
    label: str | None


class _ModSummaryVORequired(TypedDict):
    """Required keys of ModSummaryVO."""
    postId: int


class ModSummaryVO(_ModSummaryVORequired, total=False):
    """Resource summary. Batch answers put null (not a record) at the position of an unknown id."""
    mainName: str | None
    subName: str | None
    introduction: str | None
    abbrName: str | None
    coverImageUrl: str | None
    detailUrl: str | None
    sectionCode: str | None
    mainCategories: list[str] | None
    presetCategory: str | None
    resourceType: str | None
    runPlatform: str | None
    clientEnvironment: Literal['REQUIRED', 'OPTIONAL', 'NO_NEED', 'UNKNOWN'] | None
    serverEnvironment: Literal['REQUIRED', 'OPTIONAL', 'NO_NEED', 'UNKNOWN'] | None
    clientInstallPath: str | None
    serverInstallPath: str | None
    serverInstallable: bool | None
    resourceVersion: str | None
    resourceState: Literal['ACTIVE', 'SEMI_ABANDONED', 'ABANDONED', 'UNKNOWN'] | None
    authors: list[AuthorBriefVO] | None
    isPaid: bool | None
    priceAmount: float | None
    priceCurrencyCode: str | None
    viewsCount: int | None
    downloadCount: int | None
    likeCount: int | None
    collectionCount: int | None
    commentCount: int | None
    averageRating: float | None
    ratingCount: int | None
    publishTime: str | None
    updateTime: str | None


class _OpenApiAccessTokenIssueParamRequired(TypedDict):
    """Required keys of OpenApiAccessTokenIssueParam."""
    authCode: str


class OpenApiAccessTokenIssueParam(_OpenApiAccessTokenIssueParamRequired, total=False):
    """Token issue request. Only authCode is required (extension: the service spec also ..."""
    userId: int | str
    requestedScopes: list[str] | None


class OpenApiAccessTokenVO(TypedDict, total=False):
    """A proxy access token."""
    accessToken: str | None
    userId: str | None
    scopes: list[str] | None
    issuedAt: str | None
    expiresAt: str | None
    tokenType: Literal['Bearer'] | None
    expiresInSeconds: int | None


class _OpenApiBatchPostDetailParamRequired(TypedDict):
    """Required keys of OpenApiBatchPostDetailParam."""
    postIds: list[int]


class OpenApiBatchPostDetailParam(_OpenApiBatchPostDetailParamRequired, total=False):
    """Legacy batch detail request."""
    postType: Literal['RESOURCE_POST', 'DISCUSS_POST', 'QUESTION_POST', 'SERVER_POST']


class OpenApiFileBatchParam(TypedDict):
    """File batch request."""
    fileInfoIds: list[int]


class OpenApiForumStatsVo(TypedDict, total=False):
    """Forum-wide statistics."""
    totalResourcePosts: int | None
    totalDiscussPosts: int | None
    totalServerPosts: int | None
    totalUsers: int | None
    todayNewPosts: int | None
    statsTime: str | None


class _OpenApiInstallInfoVoRequired(TypedDict):
    """Required keys of OpenApiInstallInfoVo."""
    postId: int


class OpenApiInstallInfoVo(_OpenApiInstallInfoVoRequired, total=False):
    """Everything an installer needs for one resource."""
    name: str | None
    version: str | None
    game: str | None
    script: str | None
    scriptSignature: str | None
    scriptKeyId: str | None
    scriptSource: Literal['AUTHOR', 'AI'] | None
    scriptSummary: str | None
    postUrl: str | None
    sourceType: str | None
    externalId: str | None
    externalGameId: str | None
    externalUrl: str | None
    files: list[InstallFileInfo] | None
    verifiedGameVersions: list[str] | None


class OpenApiNotificationReadParam(TypedDict, total=False):
    """Notifications to mark read."""
    messageIds: list[int] | None


class OpenApiPairingRedeemParam(TypedDict):
    """Pairing code redemption."""
    pairingCode: str


class OpenApiPostIdVO(TypedDict):
    """Id of a resource post."""
    postId: int


class _OpenApiPrivateMessageResultVORequired(TypedDict):
    """Required keys of OpenApiPrivateMessageResultVO."""
    messageId: int


class OpenApiPrivateMessageResultVO(_OpenApiPrivateMessageResultVORequired, total=False):
    """Result of sending a private message."""
    hasSensitiveWords: bool | None


class OpenApiProxyUserPointsAdjustParam(TypedDict):
    """Wallet adjustment request."""
    amount: float
    reason: str
    direction: Literal['ADD', 'DEDUCT']


class _OpenApiProxyUserPointsAdjustVORequired(TypedDict):
    """Required keys of OpenApiProxyUserPointsAdjustVO."""
    recordId: int


class OpenApiProxyUserPointsAdjustVO(_OpenApiProxyUserPointsAdjustVORequired, total=False):
    """Result of a wallet adjustment."""
    newBalance: float | None
    currencyCode: Literal['GOLD_COIN', 'POINTS', 'CASH'] | None


class OpenApiProxyUserPointsVO(TypedDict, total=False):
    """A wallet balance of a user."""
    balance: float | None
    frozenBalance: float | None
    availableBalance: float | None
    currencyCode: Literal['GOLD_COIN', 'POINTS', 'CASH'] | None


class _OpenApiProxyUserRegisterParamRequired(TypedDict):
    """Required keys of OpenApiProxyUserRegisterParam."""
    username: str


class OpenApiProxyUserRegisterParam(_OpenApiProxyUserRegisterParamRequired, total=False):
    """Proxy user registration."""
    phone: str | None
    email: str | None
    loginName: str | None
    password: str | None
    externalUserId: str | None
    externalUsername: str | None
    externalDisplayName: str | None


class OpenApiProxyUserRegisterVO(TypedDict, total=False):
    """Result of registering a proxy user."""
    userId: str | None
    accessToken: str | None
    expiresInSeconds: int | None
    loginName: str | None
    passwordAutoGenerated: Literal[0, 1] | None
    plainPassword: str | None


class OpenApiResourceBatchParam(TypedDict):
    """Resource batch request."""
    postIds: list[int]


class _OpenApiServerPostLobbyManifestItemVoRequired(TypedDict):
    """Required keys of OpenApiServerPostLobbyManifestItemVo."""
    id: int


class OpenApiServerPostLobbyManifestItemVo(_OpenApiServerPostLobbyManifestItemVoRequired, total=False):
    """One resource of a lobby manifest."""
    source: Literal['COMMUNITY', 'BUILTIN'] | None
    communityPostId: int | None
    communityFileId: int | None
    resourceType: str | None
    name: str | None
    version: str | None
    environmentSide: Literal['CLIENT', 'BOTH'] | None
    clientInstallPath: str | None
    sizeBytes: int | None
    sha256: str | None
    downloadUrl: str | None
    downloadUrlExpiresAt: str | None
    extraJson: str | None


class _OpenApiServerPostLobbyManifestVoRequired(TypedDict):
    """Required keys of OpenApiServerPostLobbyManifestVo."""
    postId: int


class OpenApiServerPostLobbyManifestVo(_OpenApiServerPostLobbyManifestVoRequired, total=False):
    """What a client needs to join a lobby server."""
    mainName: str | None
    sectionCode: str | None
    serverIp: str | None
    serverPort: int | None
    serverPassword: str | None
    serverVersion: str | None
    queryType: str | None
    updatedAt: str | None
    items: list[OpenApiServerPostLobbyManifestItemVo] | None


class _OpenApiServerPostLobbyReserveBatchVoRequired(TypedDict):
    """Required keys of OpenApiServerPostLobbyReserveBatchVo."""
    postId: int


class OpenApiServerPostLobbyReserveBatchVo(_OpenApiServerPostLobbyReserveBatchVoRequired, total=False):
    """Result of a reserve batch."""
    results: list[OpenApiServerPostLobbyReserveItemVo] | None


class OpenApiServerPostLobbyReserveItemVo(TypedDict, total=False):
    """Result for one reserve item."""
    sha256: str | None
    status: Literal['REUSE', 'NEED_UPLOAD', 'REJECTED']
    reservedResourceId: int | None
    uploadToken: str | None
    objectKey: str | None
    downloadUrl: str | None
    rejectReason: str | None


class _OpenApiServerPostLobbyUploadResultVoRequired(TypedDict):
    """Required keys of OpenApiServerPostLobbyUploadResultVo."""
    resourceId: int


class OpenApiServerPostLobbyUploadResultVo(_OpenApiServerPostLobbyUploadResultVoRequired, total=False):
    """Result of an upload."""
    objectKey: str | None
    sha256: str | None
    downloadUrl: str | None
    downloadUrlExpiresAt: int | None


class _OpenApiServerStatusVoRequired(TypedDict):
    """Required keys of OpenApiServerStatusVo."""
    postId: int


class OpenApiServerStatusVo(_OpenApiServerStatusVoRequired, total=False):
    """Status of a game server post."""
    mainName: str | None
    queryEnabled: bool | None
    queryType: str | None
    serverPort: int | None
    currentPlayers: int | None
    maxPlayers: int | None
    serverStatus: str | None
    serverMotd: str | None
    latencyMs: int | None
    lastHeartbeatTime: str | None


class OpenApiSsoTicketVO(TypedDict, total=False):
    """A single sign-on ticket."""
    ticket: str | None
    expiresInSeconds: int | None


class OpenApiStatsBriefVO(TypedDict, total=False):
    """Time-segmented statistics; every counter is 0 when there is no data. null when ..."""
    viewsLast24h: int
    viewsLast7d: int
    viewsLast30d: int
    downloadsLast24h: int
    downloadsLast7d: int
    downloadsLast30d: int
    collectsLast24h: int
    collectsLast7d: int
    collectsLast30d: int


class _OpenApiUserBindingLinkParamRequired(TypedDict):
    """Required keys of OpenApiUserBindingLinkParam."""
    externalUserId: str


class OpenApiUserBindingLinkParam(_OpenApiUserBindingLinkParamRequired, total=False):
    """Binding between the proxy user and an application user."""
    externalUsername: str | None
    externalDisplayName: str | None


class _OpenApiUserBindingVORequired(TypedDict):
    """Required keys of OpenApiUserBindingVO."""
    bindingId: int


class OpenApiUserBindingVO(_OpenApiUserBindingVORequired, total=False):
    """Binding between a platform user and an application user."""
    userId: int | None
    appId: int | None
    externalUserId: str | None
    externalUsername: str | None
    bindSource: str | None
    status: Literal['ACTIVE', 'UNBOUND'] | None
    bindTime: str | None


class _OpenApiUserProfileVoRequired(TypedDict):
    """Required keys of OpenApiUserProfileVo."""
    userId: int


class OpenApiUserProfileVo(_OpenApiUserProfileVoRequired, total=False):
    """Profile of the proxy user (legacy v1)."""
    loginName: str | None
    avatar: str | None
    gender: str | None
    bio: str | None
    location: str | None
    status: str | None
    registerTime: str | None


class _PageResultCommentVORequired(TypedDict):
    """Required keys of PageResultCommentVO."""
    pageNum: int
    pageSize: int
    total: int
    pages: int
    list: list[CommentVO]
    emptyFlag: bool
    hasMore: bool


class PageResultCommentVO(_PageResultCommentVORequired, total=False):
    """PageResult whose list holds CommentVO."""
    extData: dict[str, Any] | None


class _PageResultCommunityAnswerVORequired(TypedDict):
    """Required keys of PageResultCommunityAnswerVO."""
    pageNum: int
    pageSize: int
    total: int
    pages: int
    list: list[CommunityAnswerVO]
    emptyFlag: bool
    hasMore: bool


class PageResultCommunityAnswerVO(_PageResultCommunityAnswerVORequired, total=False):
    """PageResult whose list holds CommunityAnswerVO."""
    extData: dict[str, Any] | None


class _PageResultCommunityFollowUserVORequired(TypedDict):
    """Required keys of PageResultCommunityFollowUserVO."""
    pageNum: int
    pageSize: int
    total: int
    pages: int
    list: list[CommunityFollowUserVO]
    emptyFlag: bool
    hasMore: bool


class PageResultCommunityFollowUserVO(_PageResultCommunityFollowUserVORequired, total=False):
    """PageResult whose list holds CommunityFollowUserVO."""
    extData: dict[str, Any] | None


class _PageResultCommunityMomentVORequired(TypedDict):
    """Required keys of PageResultCommunityMomentVO."""
    pageNum: int
    pageSize: int
    total: int
    pages: int
    list: list[CommunityMomentVO]
    emptyFlag: bool
    hasMore: bool


class PageResultCommunityMomentVO(_PageResultCommunityMomentVORequired, total=False):
    """PageResult whose list holds CommunityMomentVO."""
    extData: dict[str, Any] | None


class _PageResultCommunityPostSummaryVORequired(TypedDict):
    """Required keys of PageResultCommunityPostSummaryVO."""
    pageNum: int
    pageSize: int
    total: int
    pages: int
    list: list[CommunityPostSummaryVO]
    emptyFlag: bool
    hasMore: bool


class PageResultCommunityPostSummaryVO(_PageResultCommunityPostSummaryVORequired, total=False):
    """PageResult whose list holds CommunityPostSummaryVO."""
    extData: dict[str, Any] | None


class _PageResultCommunityQuestionVORequired(TypedDict):
    """Required keys of PageResultCommunityQuestionVO."""
    pageNum: int
    pageSize: int
    total: int
    pages: int
    list: list[CommunityQuestionVO]
    emptyFlag: bool
    hasMore: bool


class PageResultCommunityQuestionVO(_PageResultCommunityQuestionVORequired, total=False):
    """PageResult whose list holds CommunityQuestionVO."""
    extData: dict[str, Any] | None


class _PageResultFullTextSearchResultVoRequired(TypedDict):
    """Required keys of PageResultFullTextSearchResultVo."""
    pageNum: int
    pageSize: int
    total: int
    pages: int
    list: list[FullTextSearchResultVo]
    emptyFlag: bool
    hasMore: bool


class PageResultFullTextSearchResultVo(_PageResultFullTextSearchResultVoRequired, total=False):
    """PageResult whose list holds FullTextSearchResultVo."""
    extData: dict[str, Any] | None


class _PageResultMessageVORequired(TypedDict):
    """Required keys of PageResultMessageVO."""
    pageNum: int
    pageSize: int
    total: int
    pages: int
    list: list[MessageVO]
    emptyFlag: bool
    hasMore: bool


class PageResultMessageVO(_PageResultMessageVORequired, total=False):
    """PageResult whose list holds MessageVO."""
    extData: dict[str, Any] | None


class _PageResultModSummaryVORequired(TypedDict):
    """Required keys of PageResultModSummaryVO."""
    pageNum: int
    pageSize: int
    total: int
    pages: int
    list: list[ModSummaryVO]
    emptyFlag: bool
    hasMore: bool


class PageResultModSummaryVO(_PageResultModSummaryVORequired, total=False):
    """PageResult whose list holds ModSummaryVO."""
    extData: dict[str, Any] | None


class _PageResultObjectRequired(TypedDict):
    """Required keys of PageResultObject."""
    pageNum: int
    pageSize: int
    total: int
    pages: int
    list: list[dict[str, Any]]
    emptyFlag: bool
    hasMore: bool


class PageResultObject(_PageResultObjectRequired, total=False):
    """PageResult whose list holds free-form objects (legacy v1)."""
    extData: dict[str, Any] | None


class PostAction(TypedDict, total=False):
    """An action to run after installing."""
    type: str | None
    params: dict[str, Any] | None


class PreCheck(TypedDict, total=False):
    """A check to run before installing."""
    type: str | None
    condition: str | None
    failMessage: str | None


class RatingAggregateVO(TypedDict, total=False):
    """Rating aggregate of a resource."""
    averageScore: float
    totalCount: int
    starDistribution: dict[str, int]


class _RelationVORequired(TypedDict):
    """Required keys of RelationVO."""
    targetPostId: int


class RelationVO(_RelationVORequired, total=False):
    """A relation from one resource to another."""
    relationType: str | None
    target: ModSummaryVO | None
    isRequired: bool | None
    sortOrder: int | None
    dataSource: Literal['USER_DEFINED', 'UPSTREAM_SYNC', 'AUTO_DETECTED'] | None


class RelationsOfResourceVO(TypedDict):
    """The relations of one resource (extension; relations batch)."""
    postId: int
    relations: list[RelationVO]


class _ResourceRelationItemParamRequired(TypedDict):
    """Required keys of ResourceRelationItemParam."""
    postId: int


class ResourceRelationItemParam(_ResourceRelationItemParamRequired, total=False):
    """One relation."""
    required: bool | None


class ResourceRelationParam(TypedDict, total=False):
    """Relations of a resource; each list replaces the stored one."""
    dependencies: list[ResourceRelationItemParam] | None
    incompatible: list[ResourceRelationItemParam] | None
    recommendations: list[ResourceRelationItemParam] | None


class _ResourceStatsDetailVORequired(TypedDict):
    """Required keys of ResourceStatsDetailVO."""
    postId: int


class ResourceStatsDetailVO(_ResourceStatsDetailVORequired, total=False):
    """Lifetime statistics of one resource."""
    totalViews: int | None
    totalDownloads: int | None
    totalLikes: int | None
    totalCollects: int | None
    totalComments: int | None
    averageRating: float | None


class ResourceSyncVO(TypedDict, total=False):
    """One batch of the incremental sync."""
    nextCursor: str | None
    hasMore: bool | None
    items: list[ModSummaryVO] | None
    deletedPostIds: list[int] | None


class _ResponseEnvelopeRequired(TypedDict):
    """Required keys of ResponseEnvelope."""
    code: Literal[0, 200101, 200102, 200103, 200104, 200201, 200202, 200203, 200204, 200205, 200206, 200207, 200208, 200209, 200210, 200211, 200212, 200213, 200214, 200215, 200216, 200230, 200231, 200232, 200301, 200302, 200303, 200304, 200305, 200306, 200307, 200308, 200320, 200321, 200330, 200331, 200340, 200341, 200342, 200343, 200344, 200401, 200402, 200404, 200409, 200420, 200500, 200501, 200503, 200600, 200601, 200602, 200603, 200604, 200605, 200606, 200607, 200701, 200702, 200703, 200704, 200705, 200706, 200707, 200708, 200709, 200710, 200711, 200712, 200800, 200801, 200911, 200912, 200913, 200914, 200915]
    msg: str
    ok: bool
    traceId: str


class ResponseEnvelope(_ResponseEnvelopeRequired, total=False):
    """The envelope (ResponseDTO) of every JSON answer, success or error. Success: code 0, ok ..."""
    level: str | None
    data: Any
    dataType: Literal[0, 1, 2, 3] | None


class _RunPlatformVORequired(TypedDict):
    """Required keys of RunPlatformVO."""
    infoId: int


class RunPlatformVO(_RunPlatformVORequired, total=False):
    """A run platform (mod loader)."""
    code: str | None
    name: str | None
    description: str | None
    iconUrl: str | None
    enable: bool | None


class SectionFilterOptionsVO(TypedDict, total=False):
    """Filter options of a section, for building search forms."""
    resourceTypes: list[FilterOptionVO] | None
    mainCategories: list[FilterOptionVO] | None
    runPlatforms: list[FilterOptionVO] | None


class SectionStatsVO(TypedDict, total=False):
    """Statistics of one section."""
    sectionCode: str
    postCount: int | None
    totalViews: int | None
    totalDownloads: int | None
    totalLikes: int | None
    totalCollects: int | None


class _SectionVORequired(TypedDict):
    """Required keys of SectionVO."""
    sectionId: int


class SectionVO(_SectionVORequired, total=False):
    """A section (game)."""
    sectionCode: str | None
    description: str | None
    englishName: str | None
    parentCode: str | None
    iconUrl: str | None
    sortOrder: int | None
    enable: bool | None
    serverPostEnabled: bool | None
    resourcePostEnabled: bool | None
    resourcePostCount: int | None


class ServerPackLayout(TypedDict, total=False):
    """Layout analysis of a server pack; null when not analysed."""
    version: int | None
    status: Literal['ROOT', 'WRAPPED', 'PENDING', 'UNKNOWN', 'AMBIGUOUS'] | None
    rootPath: str | None
    stripComponents: int | None
    fileCount: int | None
    uncompressedSize: int | None
    sizesVerified: bool | None
    hasLibrariesJar: bool | None
    hasModsJar: bool | None


class _ServerProviderActivityCollectParamRequired(TypedDict):
    """Required keys of ServerProviderActivityCollectParam."""
    requestId: str
    activityCode: str
    amount: float


class ServerProviderActivityCollectParam(_ServerProviderActivityCollectParamRequired, total=False):
    """Collect points from the authorizing user into the provider's activity account."""
    currencyCode: Literal['POINTS', 'GOLD_COIN'] | None
    reason: str | None


class _ServerProviderActivityCollectResultVoRequired(TypedDict):
    """Required keys of ServerProviderActivityCollectResultVo."""
    recordId: int


class ServerProviderActivityCollectResultVo(_ServerProviderActivityCollectResultVoRequired, total=False):
    """Result of an activity points collection."""
    requestId: str | None
    amount: float | None
    currencyCode: Literal['POINTS', 'GOLD_COIN'] | None
    userBalance: float | None
    providerBalance: float | None
    duplicate: bool | None


class _ServerProviderCarouselParamRequired(TypedDict):
    """Required keys of ServerProviderCarouselParam."""
    targetUrl: str
    title: str
    endTime: str


class ServerProviderCarouselParam(_ServerProviderCarouselParamRequired, total=False):
    """Self-service carousel placement (skips review). Exactly one of imageFileId and ..."""
    imageFileId: int | None
    imageUrl: str | None
    description: str | None
    serverPostId: int | None
    startTime: str | None


class _ServerProviderCarouselResultVoRequired(TypedDict):
    """Required keys of ServerProviderCarouselResultVo."""
    carouselId: int


class ServerProviderCarouselResultVo(_ServerProviderCarouselResultVoRequired, total=False):
    """A carousel placement."""
    status: Literal['SCHEDULED', 'ACTIVE'] | None
    imageUrl: str | None
    targetUrl: str | None
    startTime: str | None
    endTime: str | None


class _UserFeedbackReportParamRequired(TypedDict):
    """Required keys of UserFeedbackReportParam."""
    usefulCount: int
    notUsefulCount: int


class UserFeedbackReportParam(_UserFeedbackReportParamRequired, total=False):
    """Threshold snapshot of "was it useful" votes."""
    threshold: int | None
    fileInfoId: int | None
    comment: str | None
    clientVersion: str | None


class _UserFeedbackResolvedItemVORequired(TypedDict):
    """Required keys of UserFeedbackResolvedItemVO."""
    feedbackId: int


class UserFeedbackResolvedItemVO(_UserFeedbackResolvedItemVORequired, total=False):
    """A resolved feedback item."""
    postId: int | None
    feedbackType: Literal['DOWNLOAD_FAILURE', 'USER_FEEDBACK'] | None
    fingerprint: str | None
    resolution: str | None
    resolvedAt: str


class _VersionVORequired(TypedDict):
    """Required keys of VersionVO."""
    postId: int


class VersionVO(_VersionVORequired, total=False):
    """One approved version of a resource."""
    versionNumber: int | None
    resourceVersion: str | None
    updateCommit: str | None
    publishTime: str | None
