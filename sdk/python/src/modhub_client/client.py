"""The synchronous client (httpx.Client): typed operations, pages, the sync walk, downloads."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

import httpx

from modhub_client import ops
from modhub_client._core import Call, Core, EtagCache, RetryPolicy
from modhub_client.downloads import CHUNK, Downloaded, Hasher, Progress, check, part_path
from modhub_client.errors import ModhubError
from modhub_client.keys import KeySet
from modhub_client.models import (
    DownloadAuthVo,
    FileSummaryVO,
    FileUpdateVO,
    ModDetailVO,
    ModSummaryVO,
    OpenApiAccessTokenVO,
    OpenApiInstallInfoVo,
    PageResultModSummaryVO,
    RelationVO,
)
from modhub_client.oauth import authorize_url
from modhub_client.signing import ProxyUser
from modhub_client.sync import Change, SyncState


class Client:
    """A modhub API client over httpx.Client. Use as a context manager or call close().

    `proxy_user` acts for a platform user on every request (or pass one per call); `retry` sets
    the 429/503 policy; `etag_cache=True` sends If-None-Match and reuses answers on 304.
    """

    def __init__(
        self,
        base_url: str,
        api_key: str | None = None,
        secret_key: str | None = None,
        *,
        proxy_user: ProxyUser | None = None,
        retry: RetryPolicy | None = None,
        etag_cache: bool | EtagCache = False,
        timeout: float = 30.0,
        http: httpx.Client | None = None,
    ):
        self.core = Core(
            base_url, api_key, secret_key, proxy_user=proxy_user, retry=retry, etag_cache=etag_cache
        )
        self.http = http or httpx.Client(timeout=timeout)
        self._keys: KeySet | None = None

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Close the HTTP connections."""
        self.http.close()

    # -- the request loop -------------------------------------------------------------------
    def send(self, call: Call, proxy_user: ProxyUser | None = None, stream: bool = False) -> httpx.Response:
        """Send a call (signed afresh on each attempt), retrying 429/503 as the policy says."""
        attempt = 0
        while True:
            request = self.core.build(self.http, call, proxy_user)
            response = self.http.send(request, stream=stream)
            wait = self.core.delay(call, attempt, response)
            if wait is None:
                return response
            response.close()
            time.sleep(wait)
            attempt += 1

    def call(self, call: Call, proxy_user: ProxyUser | None = None) -> Any:
        """Send a call and answer the envelope's data (raises ApiError subclasses on errors)."""
        response = self.send(call, proxy_user)
        return self.core.result(call, response, proxy_user)

    def request(
        self,
        method: str,
        path: str,
        *,
        params: dict[str, Any] | None = None,
        json: Any = None,
        headers: dict[str, str] | None = None,
        proxy_user: ProxyUser | None = None,
    ) -> Any:
        """Any operation of the contract by method and path; answers the envelope's data."""
        return self.call(Call(method.upper(), path, params, json, dict(headers or {})), proxy_user)

    # -- typed operations -------------------------------------------------------------------
    def search(
        self, keyword: str | None = None, *, page_num: int = 1, page_size: int = 20, **filters: Any
    ) -> PageResultModSummaryVO:
        """One page of mods/search; filters by their contract names (sectionCode, runPlatform...)."""
        return cast(
            PageResultModSummaryVO,
            self.call(ops.search(keyword, page_num=page_num, page_size=page_size, **filters)),
        )

    def get_mod(self, post_id: int) -> ModDetailVO:
        """A resource's detail."""
        return cast(ModDetailVO, self.call(ops.get_mod(post_id)))

    def get_mods(self, post_ids: list[int]) -> list[ModSummaryVO | None]:
        """Resources by id in request order (null for unknown ids)."""
        return cast(list[ModSummaryVO | None], self.call(ops.get_mods(post_ids)))

    def list_files(self, post_id: int) -> list[FileSummaryVO]:
        """A resource's files."""
        return cast(list[FileSummaryVO], self.call(ops.list_files(post_id)))

    def relations(self, post_id: int) -> list[RelationVO]:
        """A resource's relations (DEPENDENCY, INCOMPATIBLE, ...)."""
        return cast(list[RelationVO], self.call(ops.relations(post_id)))

    def install_info(self, post_id: int, *, verify: bool = True) -> OpenApiInstallInfoVo:
        """Install info; with verify, the script's signature is checked against the published keys
        (fetched again once when the key id is not in the set held: the keys may have rotated)."""
        info = cast(OpenApiInstallInfoVo, self.call(ops.install_info(post_id)))
        if verify and info.get("script"):
            self.verify_script(info)
        return info

    def verify_script(self, info: OpenApiInstallInfoVo) -> str:
        """Verify an install-info's script signature; answers the key id that verified it."""
        from modhub_client.errors import SignatureInvalid

        script, signature, kid = info.get("script"), info.get("scriptSignature"), info.get("scriptKeyId")
        if not script:
            return ""
        if not signature:
            raise SignatureInvalid("the install script carries no signature")
        keys = self.install_keys()
        if kid and kid not in keys.keys:
            keys = self.install_keys(refresh=True)
        return keys.verify(script, signature, kid).kid

    def install_keys(self, refresh: bool = False) -> KeySet:
        """The published install keys (kept until refresh)."""
        if self._keys is None or refresh:
            response = self.send(ops.install_keys())
            if response.status_code != 200:
                self.core.result(ops.install_keys(), response, None)  # raises the error
            self._keys = KeySet.parse(response.content)
        return self._keys

    def file_updates(
        self,
        hashes: list[str],
        *,
        game_version: str,
        run_platform: str | None = None,
        algorithm: str = "sha256",
        **extra: Any,
    ) -> list[FileUpdateVO | None]:
        """The update check: per hash, the newest matching file (null: unknown or no match)."""
        return cast(
            list[FileUpdateVO | None],
            self.call(
                ops.file_updates(
                    hashes, game_version=game_version, run_platform=run_platform, algorithm=algorithm, **extra
                )
            ),
        )

    def download_auth(
        self, post_id: int, file_id: int | None = None, proxy_user: ProxyUser | None = None
    ) -> DownloadAuthVo:
        """Temporary download links for an on-site file."""
        return cast(DownloadAuthVo, self.call(ops.download_auth(post_id, file_id), proxy_user))

    def exchange_code(
        self, auth_code: str, user_id: int | None = None, scopes: list[str] | None = None
    ) -> OpenApiAccessTokenVO:
        """OAuth: exchange the redirect's auth_code (and user id) for a proxy access token."""
        return cast(OpenApiAccessTokenVO, self.call(ops.issue_token(auth_code, user_id, scopes)))

    def authorize_url(self, app_id: int, redirect_uri: str, state: str | None = None) -> str:
        """OAuth: where to send the user for consent (the server's own site)."""
        return authorize_url(self.core.base_url, app_id, redirect_uri, state)

    # -- pages and the sync walk ------------------------------------------------------------
    def pages(
        self,
        path: str,
        params: dict[str, Any] | None = None,
        *,
        page_size: int = 20,
        proxy_user: ProxyUser | None = None,
    ) -> Iterator[Any]:
        """Every record of a paged GET operation (PageResult), page after page until hasMore is false."""
        page = 1
        while True:
            data = self.call(
                Call("GET", path, {**(params or {}), "pageNum": page, "pageSize": page_size}), proxy_user
            )
            yield from data.get("list") or []
            if not data.get("hasMore"):
                return
            page += 1

    def iter_search(
        self, keyword: str | None = None, *, page_size: int = 50, **filters: Any
    ) -> Iterator[ModSummaryVO]:
        """Every search result (bounded by MAX_OFFSET: read everything with walk_sync)."""
        call = ops.search(keyword, **filters)
        params = {k: v for k, v in (call.params or {}).items() if k not in ("pageNum", "pageSize")}
        return cast(Iterator[ModSummaryVO], self.pages(call.path, params, page_size=page_size))

    def iter_comments(self, post_id: int, *, page_size: int = 50) -> Iterator[dict[str, Any]]:
        """Every comment of a resource."""
        return self.pages(ops.comments(post_id).path, page_size=page_size)

    def walk_sync(self, state: SyncState | None = None, *, size: int = 100) -> Iterator[Change]:
        """Changes and tombstones from the state's cursor until hasMore is false; the state keeps
        the cursor to continue from next time."""
        state = state or SyncState()
        while True:
            yield from state.changes(self.call(ops.sync(state.params(), size)))
            if not state.has_more:
                return

    # -- downloads --------------------------------------------------------------------------
    def download(
        self,
        post_id: int,
        file_id: int,
        dest: str | os.PathLike[str],
        *,
        expected: dict[str, str] | None = None,
        progress: Progress | None = None,
        proxy_user: ProxyUser | None = None,
    ) -> Downloaded:
        """Stream download-file to dest through dest.part (resumed with Range when present),
        checking the published digests; a mismatch deletes the bytes and raises HashMismatch."""

        def request(headers: dict[str, str]) -> httpx.Response:
            response = self.send(ops.download_file(post_id, file_id, headers), proxy_user, stream=True)
            if response.status_code in (301, 302, 303, 307, 308) and "Location" in response.headers:
                response.close()  # an external link: fetched unsigned
                location = self.core.absolute(response.headers["Location"])
                return self.http.send(self.http.build_request("GET", location, headers=headers), stream=True)
            return response

        return self._stream(request, Path(dest), expected or {}, progress)

    def download_link(
        self,
        url: str,
        dest: str | os.PathLike[str],
        *,
        expected: dict[str, str] | None = None,
        progress: Progress | None = None,
    ) -> Downloaded:
        """Stream a temporary link (download-auth's downloadInfos[].url, maybe relative) to dest."""
        absolute = self.core.absolute(url)
        return self._stream(
            lambda headers: self.http.send(
                self.http.build_request("GET", absolute, headers=headers), stream=True
            ),
            Path(dest),
            expected or {},
            progress,
        )

    def _stream(
        self, request: Any, dest: Path, expected: dict[str, str], progress: Progress | None
    ) -> Downloaded:
        part = part_path(dest)
        dest.parent.mkdir(parents=True, exist_ok=True)
        have = part.stat().st_size if part.exists() else 0
        headers = {"Range": f"bytes={have}-"} if have else {}
        if have and expected.get("sha256"):
            headers["If-Range"] = f'"{expected["sha256"]}"'  # the download ETag is the sha256
        response = request(headers)
        try:
            status = response.status_code
            if status not in (200, 206) and not (status == 416 and have):  # 416: the part is whole
                response.read()
                self.core.result(Call("GET", ""), response, None)
                raise ModhubError(f"download answered HTTP {status}")
            resumed = 0 if status == 200 else have
            hasher = Hasher()
            if resumed:
                hasher.feed_file(part)
            total = _total(response, resumed)
            with open(part, "ab" if resumed else "wb") as out:
                if response.status_code in (200, 206):
                    for chunk in response.iter_bytes(CHUNK):
                        out.write(chunk)
                        hasher.update(chunk)
                        if progress:
                            progress(hasher.size, total)
        finally:
            response.close()
        return _finish(part, dest, hasher, expected, resumed)


def _total(response: httpx.Response, resumed: int) -> int | None:
    length = response.headers.get("Content-Length")
    return resumed + int(length) if length and length.isdigit() else None


def _finish(part: Path, dest: Path, hasher: Hasher, expected: dict[str, str], resumed: int) -> Downloaded:
    digests = hasher.hexdigests()
    try:
        check(dest, digests, expected)
    except ModhubError:
        part.unlink(missing_ok=True)
        raise
    os.replace(part, dest)
    return Downloaded(dest, hasher.size, digests, resumed)
