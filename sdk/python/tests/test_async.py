"""The async client does what the sync one does: a signed page, the sync walk, a checked download."""

from __future__ import annotations

import asyncio

import pytest
from modhub_client import AsyncClient, NotFound, expected_hashes


def test_async_client_pages_walk_and_download(server, catalogue, tmp_path):
    post_id, file = catalogue.uploaded()[0]

    async def scenario() -> None:
        async with AsyncClient(server.base_url, server.api_key, server.secret_key) as client:
            page = await client.search(page_size=3)
            ids = [mod["postId"] async for mod in client.iter_search(page_size=100)]
            assert len(ids) == page["total"]
            walked = {c.post_id async for c in client.walk_sync(size=200) if c.kind == "changed"}
            assert set(ids) <= walked
            done = await client.download(
                post_id, file["fileInfoId"], tmp_path / "f.jar", expected=expected_hashes(file)
            )
            assert done.hashes == {k: file["hashes"][k] for k in ("sha1", "sha256", "sha512")}
            with pytest.raises(NotFound):
                await client.get_mod(9_000_000_000)

    asyncio.run(scenario())
