"""The lobby VOs built from rows: the manifest and its items, reserve results, upload results."""

from __future__ import annotations

import re
from collections.abc import Sequence

from models.catalog.tables import ServerPost
from models.lobby.tables import LobbyPost, LobbyResource
from models.lobby.vos import ManifestItemVO, ManifestVO, ReserveItemVO, UploadResultVO
from modhub.core.display import Display

SHA256_RE = re.compile(r"[0-9a-f]{64}")


def manifest_item(row: LobbyResource, *, display: Display) -> ManifestItemVO:
    """OpenApiServerPostLobbyManifestItemVo (an uploaded resource is listed as BUILTIN)."""
    return {
        "id": row.id,
        "source": "COMMUNITY" if row.source == "COMMUNITY" else "BUILTIN",
        "communityPostId": row.community_post_id,
        "communityFileId": row.community_file_id,
        "resourceType": row.resource_type,
        "name": row.name,
        "version": row.version,
        "environmentSide": row.environment_side,
        "clientInstallPath": row.client_install_path,
        "sizeBytes": row.size_bytes,
        "sha256": row.sha256,
        "downloadUrl": row.download_url or "",
        "downloadUrlExpiresAt": display.time(row.download_url_expires_at),
        "extraJson": row.extra_json,
    }


def manifest(
    lobby: LobbyPost, server: ServerPost, rows: Sequence[LobbyResource], *, display: Display
) -> ManifestVO:
    """OpenApiServerPostLobbyManifestVo: the address, password and the client-side resources."""
    return {
        "postId": lobby.id,
        "mainName": server.main_name,
        "sectionCode": server.section_code,
        "serverIp": server.server_ip,
        "serverPort": server.server_port,
        "serverPassword": lobby.server_password or "",
        "serverVersion": ",".join(lobby.server_versions or []),
        "queryType": server.query_type,
        "updatedAt": display.time(lobby.update_time),
        "items": [manifest_item(r, display=display) for r in rows],
    }


def reserve_reuse(sha256: str, row: LobbyResource) -> ReserveItemVO:
    """OpenApiServerPostLobbyReserveItemVo of content already stored."""
    return {
        "sha256": sha256,
        "status": "REUSE",
        "reservedResourceId": row.id,
        "uploadToken": None,
        "objectKey": row.object_key,
        "downloadUrl": row.download_url,
        "rejectReason": None,
    }


def reserve_upload(sha256: str, row: LobbyResource, token: str) -> ReserveItemVO:
    """OpenApiServerPostLobbyReserveItemVo of content to upload with a one-time token."""
    return {
        "sha256": sha256,
        "status": "NEED_UPLOAD",
        "reservedResourceId": row.id,
        "uploadToken": token,
        "objectKey": None,
        "downloadUrl": None,
        "rejectReason": None,
    }


def reserve_rejected(sha256: object, reason: str) -> ReserveItemVO:
    """OpenApiServerPostLobbyReserveItemVo of a refused item (sha256 echoed only when a string)."""
    echo = sha256 if isinstance(sha256, str) and SHA256_RE.fullmatch(sha256) else None
    return {
        "sha256": echo,
        "status": "REJECTED",
        "reservedResourceId": None,
        "uploadToken": None,
        "objectKey": None,
        "downloadUrl": None,
        "rejectReason": reason,
    }


def upload_result(row: LobbyResource) -> UploadResultVO:
    """OpenApiServerPostLobbyUploadResultVo (expiry in epoch milliseconds)."""
    expires = row.download_url_expires_at
    return {
        "resourceId": row.id,
        "objectKey": row.object_key,
        "sha256": row.sha256,
        "downloadUrl": row.download_url or "",
        "downloadUrlExpiresAt": int(expires.timestamp() * 1000) if expires else None,
    }
