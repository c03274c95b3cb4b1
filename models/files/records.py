"""VO builders of files: FileSummaryVO (with fingerprint and hashes), FileDetailVO, download VOs."""

from __future__ import annotations

from models.catalog.tables import ResourceFile
from modhub.core.display import Display


def hashes(f: ResourceFile) -> dict | None:
    """The stored digests {sha1, sha256, sha512}, or null for a file not stored on site."""
    if not f.sha256:
        return None
    return {"sha1": f.sha1, "sha256": f.sha256, "sha512": f.sha512}


def file_summary(f: ResourceFile, *, platform_names: dict[str, str], display: Display) -> dict:
    """FileSummaryVO of a file; fingerprint is the sha256 (null when the bytes are not on site)."""
    return {
        "fileInfoId": f.id,
        "postId": f.post_id,
        "fileTitle": f.title,
        "fileName": f.file_name,
        "fileVersion": f.file_version,
        "resourceVersions": list(f.resource_versions or []),
        "runPlatform": f.run_platform,
        "runPlatformName": platform_names.get(f.run_platform),
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


def down_info(f: ResourceFile) -> list[dict]:
    """Parsed download information without tokens: the on-site copy, then the stored sources."""
    infos = []
    if f.storage_type == "DIRECT_UPLOAD" and f.object_key:
        infos.append(
            {
                "storageType": "DIRECT_UPLOAD",
                "name": "modhub",
                "url": None,
                "fileName": f.file_name,
                "fileSize": f.file_size,
                "sha256": f.sha256,
                "extractCode": None,
                "expiresAt": None,
            }
        )
    for entry in f.down_info or []:
        if not isinstance(entry, dict):
            continue
        kind = entry.get("type") if entry.get("type") in ("DIRECT_LINK", "CLOUD_DISK") else None
        infos.append(
            {
                "storageType": kind or f.storage_type,
                "name": entry.get("name"),
                "url": entry.get("url"),
                "fileName": f.file_name,
                "fileSize": None,
                "sha256": None,
                "extractCode": entry.get("code"),
                "expiresAt": None,
            }
        )
    return infos


def file_detail(f: ResourceFile, *, platform_names: dict[str, str], display: Display) -> dict:
    """FileDetailVO: the summary plus the parsed download information (no change log is kept)."""
    return {
        **file_summary(f, platform_names=platform_names, display=display),
        "downInfo": down_info(f),
        "logs": [],
    }


def download_url(f: ResourceFile) -> dict:
    """FileDownloadUrlVO: the original external link of the file."""
    return {"fileInfoId": f.id, "postId": f.post_id, "storageType": f.storage_type, "url": f.external_url}
