"""The operations the clients expose, as Calls (method, path exactly as sent, query, body).

Query and body keys are the contract's own names; `**filters` pass further contract parameters
through unchanged, so a filter added to the contract needs no new client release.
"""

from __future__ import annotations

from typing import Any

from modhub_client._core import Call, new_idempotency_key

V2 = "/openapi/v2"


def _clean(params: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in params.items() if v is not None}


def search(keyword: str | None = None, *, page_num: int = 1, page_size: int = 20, **filters: Any) -> Call:
    """GET mods/search (PageResultModSummaryVO)."""
    return Call(
        "GET",
        f"{V2}/mods/search",
        _clean({"keyword": keyword, "pageNum": page_num, "pageSize": page_size, **filters}),
    )


def get_mod(post_id: int) -> Call:
    """GET mods/{postId} (ModDetailVO)."""
    return Call("GET", f"{V2}/mods/{int(post_id)}")


def get_mods(post_ids: list[int]) -> Call:
    """POST mods (batch, 1 to 50 ids; null at unknown ids)."""
    return Call("POST", f"{V2}/mods", json={"postIds": [int(i) for i in post_ids]}, safe=True)


def list_files(post_id: int) -> Call:
    """GET mods/{postId}/files (list of FileSummaryVO)."""
    return Call("GET", f"{V2}/mods/{int(post_id)}/files")


def get_files(file_ids: list[int]) -> Call:
    """POST files (batch, 1 to 50 ids)."""
    return Call("POST", f"{V2}/files", json={"fileInfoIds": [int(i) for i in file_ids]}, safe=True)


def relations(post_id: int) -> Call:
    """GET mods/{postId}/relations (list of RelationVO)."""
    return Call("GET", f"{V2}/mods/{int(post_id)}/relations")


def versions(post_id: int) -> Call:
    """GET mods/{postId}/versions (list of VersionVO)."""
    return Call("GET", f"{V2}/mods/{int(post_id)}/versions")


def comments(post_id: int, *, page_num: int = 1, page_size: int = 20) -> Call:
    """GET mods/{postId}/comments (PageResultCommentVO)."""
    return Call("GET", f"{V2}/mods/{int(post_id)}/comments", {"pageNum": page_num, "pageSize": page_size})


def install_info(post_id: int) -> Call:
    """GET mods/{postId}/install-info (OpenApiInstallInfoVo)."""
    return Call("GET", f"{V2}/mods/{int(post_id)}/install-info")


def install_config(post_id: int) -> Call:
    """GET mods/{postId}/install-config (InstallConfigVo)."""
    return Call("GET", f"{V2}/mods/{int(post_id)}/install-config")


def sync(cursor: str | None = None, size: int = 100) -> Call:
    """GET mods/sync (ResourceSyncVO)."""
    return Call("GET", f"{V2}/mods/sync", _clean({"cursor": cursor or None, "size": size}))


def file_updates(
    hashes: list[str],
    *,
    game_version: str,
    run_platform: str | None = None,
    algorithm: str = "sha256",
    **extra: Any,
) -> Call:
    """POST files/updates: the newest matching file per installed hash (read-only POST)."""
    body = _clean(
        {
            "algorithm": algorithm,
            "hashes": hashes,
            "gameVersion": game_version,
            "runPlatform": run_platform,
            **extra,
        }
    )
    return Call("POST", f"{V2}/files/updates", json=body, safe=True)


def lookup_files(hashes: list[str], *, algorithm: str = "sha256") -> Call:
    """POST files/lookup: files and resources identified by hash (read-only POST)."""
    return Call("POST", f"{V2}/files/lookup", json={"algorithm": algorithm, "hashes": hashes}, safe=True)


def download_auth(post_id: int, file_id: int | None = None, proxy_user_id: int | None = None) -> Call:
    """POST resource/{postId}/download-auth: temporary download links (read-only POST)."""
    body = _clean({"fileInfoId": file_id, "proxyUserId": proxy_user_id})
    return Call("POST", f"{V2}/resource/{int(post_id)}/download-auth", json=body, safe=True)


def download_url(file_id: int) -> Call:
    """GET files/{fileId}/download-url: the external link of a DIRECT_LINK file."""
    return Call("GET", f"{V2}/files/{int(file_id)}/download-url")


def download_file(post_id: int, file_id: int, headers: dict[str, str] | None = None) -> Call:
    """GET mods/{postId}/files/{fileId}/download-file: the bytes (or a 302 to an external link)."""
    return Call(
        "GET", f"{V2}/mods/{int(post_id)}/files/{int(file_id)}/download-file", headers=dict(headers or {})
    )


def install_keys() -> Call:
    """GET meta/install-signing-key (anonymous): the published install keys."""
    return Call(
        "GET",
        f"{V2}/meta/install-signing-key",
        signed=False,
        headers={"Accept": "application/jwk-set+json, application/x-pem-file;q=0.9, */*;q=0.1"},
    )


def issue_token(auth_code: str, user_id: int | None = None, scopes: list[str] | None = None) -> Call:
    """POST oauth/token: exchange an authorization code (and the user id it was issued to)."""
    body = _clean({"authCode": auth_code, "userId": user_id, "requestedScopes": scopes})
    return Call("POST", f"{V2}/oauth/token", json=body)


def revoke_token() -> Call:
    """POST oauth/revoke: revoke the token the client's proxy user carries."""
    return Call("POST", f"{V2}/oauth/revoke", json={})


def adjust_points(user_id: int, body: dict[str, Any], idempotency_key: str | None = None) -> Call:
    """POST proxy-user/{userId}/points/adjust with an Idempotency-Key (a retry applies once)."""
    return Call(
        "POST",
        f"{V2}/proxy-user/{int(user_id)}/points/adjust",
        json=body,
        headers={"Idempotency-Key": idempotency_key or new_idempotency_key()},
    )


def adjust_wallet(
    user_id: int, currency: str, body: dict[str, Any], idempotency_key: str | None = None
) -> Call:
    """POST proxy-user/{userId}/wallet/{currencyCode}/adjust with an Idempotency-Key."""
    return Call(
        "POST",
        f"{V2}/proxy-user/{int(user_id)}/wallet/{currency}/adjust",
        json=body,
        headers={"Idempotency-Key": idempotency_key or new_idempotency_key()},
    )
