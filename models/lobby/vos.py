"""The shapes of the lobby's records (TypedDicts; keys and value types as the builders in
records.py, reserve.py and providers.py write them, named after the contract's VO schemas). No
behaviour: a dict with these keys is what the handlers answer.
"""

from __future__ import annotations

from decimal import Decimal
from typing import TypedDict


class ManifestItemVO(TypedDict):
    """OpenApiServerPostLobbyManifestItemVo."""

    id: int
    source: str
    communityPostId: int | None
    communityFileId: int | None
    resourceType: str | None
    name: str | None
    version: str | None
    environmentSide: str
    clientInstallPath: str | None
    sizeBytes: int | None
    sha256: str | None
    downloadUrl: str
    downloadUrlExpiresAt: str | None
    extraJson: str | None


class ManifestVO(TypedDict):
    """OpenApiServerPostLobbyManifestVo."""

    postId: int
    mainName: str
    sectionCode: str
    serverIp: str | None
    serverPort: int | None
    serverPassword: str
    serverVersion: str
    queryType: str | None
    updatedAt: str | None
    items: list[ManifestItemVO]


class ReserveItemVO(TypedDict):
    """OpenApiServerPostLobbyReserveItemVo: REUSE, NEED_UPLOAD or REJECTED."""

    sha256: str | None
    status: str
    reservedResourceId: int | None
    uploadToken: str | None
    objectKey: str | None
    downloadUrl: str | None
    rejectReason: str | None


class ReserveBatchVO(TypedDict):
    """OpenApiServerPostLobbyReserveBatchVo: one result per item, in order."""

    postId: int
    results: list[ReserveItemVO]


class UploadResultVO(TypedDict):
    """OpenApiServerPostLobbyUploadResultVo (expiry in epoch milliseconds)."""

    resourceId: int
    objectKey: str | None
    sha256: str | None
    downloadUrl: str
    downloadUrlExpiresAt: int | None


class CollectResultVO(TypedDict):
    """ServerProviderActivityCollectResultVo."""

    recordId: int
    requestId: str
    amount: Decimal
    currencyCode: str
    userBalance: Decimal
    providerBalance: Decimal
    duplicate: bool
