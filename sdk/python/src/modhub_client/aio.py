"""The asynchronous client (httpx.AsyncClient): the same operations as Client, awaited."""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any, cast

import httpx

from modhub_client import ops
from modhub_client._core import Call, Core, EtagCache, RetryPolicy
from modhub_client.downloads import CHUNK, Downloaded, Hasher, Progress, part_path
from modhub_client.errors import ModhubError, SignatureInvalid
from modhub_client.keys import KeySet
from modhub_client.models import (
    DownloadAuthVo,
    FileSummaryVO,
    FileUpdateVO,
    ModDetailVO,
    ModSummaryVO,
    OpenApiInstallInfoVo,
    PageResultModSummaryVO,
    RelationVO,
)
from modhub_client.signing import ProxyUser
from modhub_client.sync import Change, SyncState


class AsyncClient:
    """A modhub API client over httpx.AsyncClient (`async with AsyncClient(...) as client`)."""

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
        http: httpx.AsyncClient | None = None,
    ):
        self.core = Core(
            base_url, api_key, secret_key, proxy_user=proxy_user, retry=retry, etag_cache=etag_cache
        )
        self.http = http or httpx.AsyncClient(timeout=timeout)
        self._keys: KeySet | None = None

    async def __aenter__(self) -> AsyncClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        """Close the HTTP connections."""
        await self.http.aclose()

    async def send(
        self, call: Call, proxy_user: ProxyUser | None = None, stream: bool = False
    ) -> httpx.Response:
        """Send a call (signed afresh on each attempt), retrying 429/503 as the policy says."""
        attempt = 0
        while True:
            response = await self.http.send(self.core.build(self.http, call, proxy_user), stream=stream)
            wait = self.core.delay(call, attempt, response)
            if wait is None:
                return response
            await response.aclose()
            await asyncio.sleep(wait)
            attempt += 1

    async def call(self, call: Call, proxy_user: ProxyUser | None = None) -> Any:
        """Send a call and answer the envelope's data (raises ApiError subclasses on errors)."""
        return self.core.result(call, await self.send(call, proxy_user), proxy_user)

    async def request(
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
        return await self.call(Call(method.upper(), path, params, json, dict(headers or {})), proxy_user)

    async def search(
        self, keyword: str | None = None, *, page_num: int = 1, page_size: int = 20, **filters: Any
    ) -> PageResultModSummaryVO:
        """One page of mods/search."""
        return cast(
            PageResultModSummaryVO,
            await self.call(ops.search(keyword, page_num=page_num, page_size=page_size, **filters)),
        )

    async def get_mod(self, post_id: int) -> ModDetailVO:
        """A resource's detail."""
        return cast(ModDetailVO, await self.call(ops.get_mod(post_id)))

    async def list_files(self, post_id: int) -> list[FileSummaryVO]:
        """A resource's files."""
        return cast(list[FileSummaryVO], await self.call(ops.list_files(post_id)))

    async def relations(self, post_id: int) -> list[RelationVO]:
        """A resource's relations."""
        return cast(list[RelationVO], await self.call(ops.relations(post_id)))

    async def file_updates(
        self,
        hashes: list[str],
        *,
        game_version: str,
        run_platform: str | None = None,
        algorithm: str = "sha256",
        **extra: Any,
    ) -> list[FileUpdateVO | None]:
        """The update check."""
        return cast(
            list[FileUpdateVO | None],
            await self.call(
                ops.file_updates(
                    hashes, game_version=game_version, run_platform=run_platform, algorithm=algorithm, **extra
                )
            ),
        )

    async def download_auth(
        self, post_id: int, file_id: int | None = None, proxy_user: ProxyUser | None = None
    ) -> DownloadAuthVo:
        """Temporary download links for an on-site file."""
        return cast(DownloadAuthVo, await self.call(ops.download_auth(post_id, file_id), proxy_user))

    async def install_keys(self, refresh: bool = False) -> KeySet:
        """The published install keys (kept until refresh)."""
        if self._keys is None or refresh:
            response = await self.send(ops.install_keys())
            if response.status_code != 200:
                self.core.result(ops.install_keys(), response, None)
            self._keys = KeySet.parse(response.content)
        return self._keys

    async def install_info(self, post_id: int, *, verify: bool = True) -> OpenApiInstallInfoVo:
        """Install info, its script signature checked against the published keys."""
        info = cast(OpenApiInstallInfoVo, await self.call(ops.install_info(post_id)))
        script, signature, kid = info.get("script"), info.get("scriptSignature"), info.get("scriptKeyId")
        if verify and script:
            if not signature:
                raise SignatureInvalid("the install script carries no signature")
            keys = await self.install_keys()
            if kid and kid not in keys.keys:
                keys = await self.install_keys(refresh=True)
            keys.verify(script, signature, kid)
        return info

    async def pages(
        self,
        path: str,
        params: dict[str, Any] | None = None,
        *,
        page_size: int = 20,
        proxy_user: ProxyUser | None = None,
    ) -> AsyncIterator[Any]:
        """Every record of a paged GET operation, until hasMore is false."""
        page = 1
        while True:
            query = {**(params or {}), "pageNum": page, "pageSize": page_size}
            data = await self.call(Call("GET", path, query), proxy_user)
            for item in data.get("list") or []:
                yield item
            if not data.get("hasMore"):
                return
            page += 1

    def iter_search(
        self, keyword: str | None = None, *, page_size: int = 50, **filters: Any
    ) -> AsyncIterator[ModSummaryVO]:
        """Every search result."""
        call = ops.search(keyword, **filters)
        params = {k: v for k, v in (call.params or {}).items() if k not in ("pageNum", "pageSize")}
        return cast(AsyncIterator[ModSummaryVO], self.pages(call.path, params, page_size=page_size))

    async def walk_sync(self, state: SyncState | None = None, *, size: int = 100) -> AsyncIterator[Change]:
        """Changes and tombstones until hasMore is false; the state keeps the cursor."""
        state = state or SyncState()
        while True:
            for change in state.changes(await self.call(ops.sync(state.params(), size))):
                yield change
            if not state.has_more:
                return

    async def download(
        self,
        post_id: int,
        file_id: int,
        dest: str | os.PathLike[str],
        *,
        expected: dict[str, str] | None = None,
        progress: Progress | None = None,
        proxy_user: ProxyUser | None = None,
    ) -> Downloaded:
        """Stream download-file to dest (resumed with Range), checking the published digests."""

        async def request(headers: dict[str, str]) -> httpx.Response:
            response = await self.send(ops.download_file(post_id, file_id, headers), proxy_user, stream=True)
            if response.status_code in (301, 302, 303, 307, 308) and "Location" in response.headers:
                await response.aclose()
                location = self.core.absolute(response.headers["Location"])
                return await self.http.send(
                    self.http.build_request("GET", location, headers=headers), stream=True
                )
            return response

        return await self._stream(request, Path(dest), expected or {}, progress)

    async def _stream(
        self,
        request: Callable[[dict[str, str]], Awaitable[httpx.Response]],
        dest: Path,
        expected: dict[str, str],
        progress: Progress | None,
    ) -> Downloaded:
        from modhub_client.client import _finish, _total

        part = part_path(dest)
        dest.parent.mkdir(parents=True, exist_ok=True)
        have = part.stat().st_size if part.exists() else 0
        headers = {"Range": f"bytes={have}-"} if have else {}
        if have and expected.get("sha256"):
            headers["If-Range"] = f'"{expected["sha256"]}"'
        response = await request(headers)
        try:
            status = response.status_code
            if status not in (200, 206) and not (status == 416 and have):
                await response.aread()
                self.core.result(Call("GET", ""), response, None)
                raise ModhubError(f"download answered HTTP {status}")
            resumed = 0 if status == 200 else have
            hasher = Hasher()
            if resumed:
                hasher.feed_file(part)
            total = _total(response, resumed)
            with open(part, "ab" if resumed else "wb") as out:
                if status in (200, 206):
                    async for chunk in response.aiter_bytes(CHUNK):
                        out.write(chunk)
                        hasher.update(chunk)
                        if progress:
                            progress(hasher.size, total)
        finally:
            await response.aclose()
        return _finish(part, dest, hasher, expected, resumed)
