"""The shapes of the file records (TypedDicts named after the contract's VO schemas; keys and value
types as records.py writes them). No behaviour: a dict with these keys is what the handlers answer.
"""

from __future__ import annotations

from typing import TypedDict


class FileHashes(TypedDict):
    """The stored digests of a file kept on site (FileSummaryVO.hashes)."""

    sha1: str | None
    sha256: str
    sha512: str | None


class FileSummary(TypedDict):
    """FileSummaryVO."""

    fileInfoId: int
    postId: int
    fileTitle: str
    fileName: str | None
    fileVersion: str | None
    resourceVersions: list[str]
    runPlatform: str | None
    runPlatformName: str | None
    environmentSide: str
    storageType: str
    fileSize: int | None
    sha256: str | None
    fileStatus: str
    downloadCount: int
    fingerprint: str | None
    hashes: FileHashes | None
    publishTime: str | None
    updateTime: str | None


class DownloadInfo(TypedDict):
    """DownloadInfo: one source of a file. Without tokens (FileDetailVO.downInfo) the on-site copy
    has no url; download-auth and install-info fill url and expiresAt with a temporary link."""

    storageType: str
    name: str | None
    url: str | None
    fileName: str | None
    fileSize: int | None
    sha256: str | None
    extractCode: str | None
    expiresAt: str | None


class FileDetail(FileSummary):
    """FileDetailVO: the summary plus the parsed download information."""

    downInfo: list[DownloadInfo]
    logs: list[object]  # FileLogVO entries: no change log is kept, always empty


class FileDownloadUrl(TypedDict):
    """FileDownloadUrlVO: the original external link of a file."""

    fileInfoId: int
    postId: int
    storageType: str
    url: str | None
