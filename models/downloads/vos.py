"""The shapes of the delivery records and request bodies (TypedDicts named after the contract's
schemas; keys and value types as the builders of this package write them). No behaviour."""

from __future__ import annotations

from collections.abc import Mapping
from typing import NotRequired, TypedDict

from models.files.vos import DownloadInfo, FileSummary

# An install script parsed as a JSON object, as its author wrote it (install.parse): every member
# is read defensively, so its values stay `object` until checked.
ScriptDocument = dict[str, object]

# ServerPackLayout: the script's serverPackLayout members, passed through as the author wrote
# them (status kept only when it is one of the contract's values).
ServerPackLayout = dict[str, object]


class DownloadAuth(TypedDict):
    """DownloadAuthVo."""

    fileInfoId: int
    fileTitle: str
    fileVersion: str | None
    resourceVersion: str | None
    runPlatform: str | None
    downloadInfos: list[DownloadInfo]
    deniedReason: str | None


class Dependency(TypedDict):
    """Dependency of an install configuration (a DEPENDENCY relation of the resource)."""

    resourcePostId: int
    name: str | None
    required: bool
    versionRequirement: str | None


class PreCheck(TypedDict):
    """PreCheck of an install script."""

    type: str | None
    condition: str | None
    failMessage: str | None


class PostAction(TypedDict):
    """PostAction of an install script."""

    type: str | None
    params: dict[str, object] | None


class InstallFile(TypedDict):
    """InstallFileInfo."""

    index: int
    fileInfoId: int
    fileName: str | None
    fileSize: int | None
    sha256: str | None
    storageType: str
    downloadUrl: str | None
    downloadUrlExpiresAt: str | None
    resourceVersions: list[str]
    runPlatform: str | None
    environmentSide: str


class InstallConfig(TypedDict):
    """InstallConfigVo."""

    postId: int
    fileInfoId: int | None
    mainName: str
    sectionCode: str
    resourceType: str | None
    runPlatform: str | None
    resourceVersion: str | None
    clientEnvironment: str
    serverEnvironment: str
    clientInstallPath: str | None
    serverInstallPath: str | None
    installScript: str | None
    scriptDocument: ScriptDocument | None
    dependencies: list[Dependency]
    preChecks: list[PreCheck]
    postActions: list[PostAction]
    serverPackLayout: ServerPackLayout | None
    files: list[InstallFile]


class InstallInfo(TypedDict):
    """OpenApiInstallInfoVo."""

    postId: int
    name: str
    version: str | None
    game: str
    script: str | None
    scriptSignature: str | None
    scriptKeyId: str | None
    scriptSource: str | None
    scriptSummary: str | None
    postUrl: str | None
    sourceType: None
    externalId: None
    externalGameId: None
    externalUrl: None
    files: list[InstallFile]
    verifiedGameVersions: list[str]


class InstallLaunch(TypedDict):
    """InstallLaunchVo."""

    postId: int
    deeplink: str
    fallbackUrl: str | None
    clientDownloadUrl: str | None
    detectProcessNames: list[str]
    detectPaths: list[str]
    guide: str


class StartupCommand(TypedDict):
    """GameStartupCommandVo."""

    postId: int
    memoryMb: int
    heapMinMb: int
    heapMaxMb: int
    javaVersion: str | None
    runPlatform: str | None
    jvmArguments: list[str]
    loaderArguments: list[str]
    command: str
    source: str


class FileHashMatch(TypedDict):
    """FileHashMatchVO: the file of a hash and its resource."""

    hash: str
    file: FileSummary
    # ModSummaryVO as models.catalog.queries.summaries builds it
    mod: Mapping[str, object]


class FileUpdate(TypedDict):
    """FileUpdateVO."""

    hash: str
    status: str
    installedFileInfoId: int | None
    upToDate: bool
    file: FileSummary | None


class ResolvedFeedback(TypedDict):
    """UserFeedbackResolvedItemVO."""

    feedbackId: int
    postId: int
    feedbackType: str
    fingerprint: str | None
    resolution: str | None
    resolvedAt: str | None


class DownloadFailureParam(TypedDict):
    """DownloadFailureReportParam (the request body, checked against the contract)."""

    fingerprint: str
    errorType: str
    fileInfoId: NotRequired[int | None]
    httpStatus: NotRequired[int | None]
    downloadUrl: NotRequired[str | None]
    message: NotRequired[str | None]
    count: NotRequired[int | None]
    clientVersion: NotRequired[str | None]


class UserFeedbackParam(TypedDict):
    """UserFeedbackReportParam (the request body, checked against the contract)."""

    usefulCount: int
    notUsefulCount: int
    threshold: NotRequired[int | None]
    fileInfoId: NotRequired[int | None]
    comment: NotRequired[str | None]
    clientVersion: NotRequired[str | None]


class StartupCommandParam(TypedDict):
    """GameStartupCommandReportParam (the request body, checked against the contract)."""

    command: str
    origin: str
    memoryMb: NotRequired[int | None]
    javaVersion: NotRequired[str | None]
    gameVersion: NotRequired[str | None]
    success: NotRequired[bool | None]
    clientVersion: NotRequired[str | None]
