"""VO builders of files: FileSummaryVO (with fingerprint and hashes), FileDetailVO, download VOs."""

from __future__ import annotations

from models.catalog.tables import ResourceFile
from models.files.vos import DownloadInfo, FileDetail, FileDownloadUrl, FileHashes, FileSummary
from modhub.core.display import Display


def hashes(f: ResourceFile) -> FileHashes | None:
    """The stored digests {sha1, sha256, sha512}, or null for a file not stored on site."""
    if not f.sha256:
        return None
    return {"sha1": f.sha1, "sha256": f.sha256, "sha512": f.sha512}


def file_summary(f: ResourceFile, *, platform_names: dict[str, str], display: Display) -> FileSummary:
    """FileSummaryVO of a file; fingerprint is the sha256 (null when the bytes are not on site)."""
    return {
        "fileInfoId": f.id,
        "postId": f.post_id,
        "fileTitle": f.title,
        "fileName": f.file_name,
        "fileVersion": f.file_version,
        "resourceVersions": list(f.resource_versions or []),
        "runPlatform": f.run_platform,
        "runPlatformName": platform_names.get(f.run_platform) if f.run_platform else None,
        "environmentSide": f.environment_side,
        "storageType": f.storage_type,
        "fileSize": f.file_size,
        "sha256": f.sha256,
        "fileStatus": f.file_status,
        "downloadCount": f.download_count,
        "fingerprint": f.sha256,
        "hashes": hashes(f),
        "publishTime": display.time(f.publish_time),
        "updateTime": display.time(f.update_time),
    }


def down_info(f: ResourceFile) -> list[DownloadInfo]:
    """Parsed download information without tokens: the on-site copy, else the file's own external
    link (`externalUrl`, the one URL download-url and the redirect give), then the other stored
    sources; a stored source repeating the file's link is that link (one URL per file)."""
    infos: list[DownloadInfo] = []
    if f.storage_type == "DIRECT_UPLOAD" and f.object_key:
        infos.append(_info(f, "DIRECT_UPLOAD", "modhub", None, None, own=True))
    entries = [e for e in f.down_info or [] if isinstance(e, dict)]
    own = f.external_url if f.storage_type != "DIRECT_UPLOAD" else None
    if own:
        same = next((e for e in entries if e.get("url") == own), {})
        infos.append(_info(f, f.storage_type, same.get("name"), own, same.get("code"), own=True))
    for entry in entries:
        if own and entry.get("url") == own:
            continue
        kind = entry.get("type") if entry.get("type") in ("DIRECT_LINK", "CLOUD_DISK") else None
        infos.append(_info(f, kind or f.storage_type, entry.get("name"), entry.get("url"), entry.get("code")))
    return infos


def _info(
    f: ResourceFile, kind: str, name: str | None, url: str | None, code: str | None, *, own: bool = False
) -> DownloadInfo:
    """One DownloadInfo without tokens; size and hash are the file's own for its own copy."""
    return {
        "storageType": kind,
        "name": name,
        "url": url,
        "fileName": f.file_name,
        "fileSize": f.file_size if own else None,
        "sha256": f.sha256 if own else None,
        "extractCode": code,
        "expiresAt": None,
    }


def file_detail(f: ResourceFile, *, platform_names: dict[str, str], display: Display) -> FileDetail:
    """FileDetailVO: the summary plus the parsed download information (no change log is kept)."""
    return {
        **file_summary(f, platform_names=platform_names, display=display),
        "downInfo": down_info(f),
        "logs": [],
    }


def download_url(f: ResourceFile) -> FileDownloadUrl:
    """FileDownloadUrlVO: the original external link of the file."""
    return {"fileInfoId": f.id, "postId": f.post_id, "storageType": f.storage_type, "url": f.external_url}
