"""One live embedded modhub server for the SDK's tests (modhub_client.testing: nothing mocked), and
what the tests pick from its demo catalogue. The server command comes from MODHUB_SERVER_COMMAND
(CI points it at the repository's .venv/bin/modhub) or PATH."""

from __future__ import annotations

import collections
import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import pytest
from modhub_client import Client
from modhub_client.get import pick_file

if TYPE_CHECKING:
    from modhub_client.testing import EmbeddedServer

pytest_plugins = ["modhub_client.testing"]  # the fixture integrators use: modhub_server


@pytest.fixture(scope="session")
def modhub_server_env() -> dict[str, str]:
    """The server's settings: the demo app's default quota (100 a minute) is too small for a test
    run; webhooks go to loopback. MODHUB_SDK_SERVER_X=value becomes the server's MODHUB_X=value:
    CI runs the suite once on the embedded default and once on PostgreSQL and Redis."""
    chosen = {
        "MODHUB_" + name.removeprefix("MODHUB_SDK_SERVER_"): value
        for name, value in os.environ.items()
        if name.startswith("MODHUB_SDK_SERVER_")
    }
    return {"MODHUB_DEFAULT_PER_MINUTE": "100000", "MODHUB_WEBHOOK_ALLOW_PRIVATE": "1", **chosen}


@pytest.fixture(scope="session")
def server(modhub_server: EmbeddedServer) -> EmbeddedServer:
    return modhub_server


@pytest.fixture
def client(server: EmbeddedServer) -> Iterator[Client]:
    with server.client() as c:
        yield c


@dataclass
class Catalogue:
    """The demo catalogue as the public API shows it (read once through the SDK)."""

    files: dict[int, list[Any]]
    relations: dict[int, list[Any]] = field(default_factory=dict)

    def uploaded(self) -> list[tuple[int, Any]]:
        """(postId, file) of every on-site file with its digests."""
        return [
            (p, f)
            for p, fs in self.files.items()
            for f in fs
            if f["storageType"] == "DIRECT_UPLOAD" and f.get("hashes")
        ]

    def rel(self, client: Client, post_id: int) -> list[Any]:
        if post_id not in self.relations:
            self.relations[post_id] = client.relations(post_id)
        return self.relations[post_id]

    def with_dependency(self, client: Client) -> tuple[int, str, str | None, list[int]]:
        """A mod with required dependencies that all have a file for one of its game versions."""
        for post_id, file in self.uploaded():
            deps = [
                int(r["targetPostId"])
                for r in self.rel(client, post_id)
                if r.get("relationType") == "DEPENDENCY" and r.get("isRequired")
            ]
            if not deps:
                continue
            for version in file["resourceVersions"] or []:
                loader = file.get("runPlatform")
                if all(pick_file(self.files.get(d, []), version, loader, None) for d in deps):
                    return post_id, version, loader, deps
        raise LookupError("the demo catalogue has no mod with installable required dependencies")

    def installable(self, post_id: int) -> str | None:
        """A game version some on-site file of the mod is for."""
        for f in self.files.get(post_id, []):
            for version in f["resourceVersions"] or []:
                if pick_file(self.files[post_id], version, None, None):
                    return str(version)
        return None

    def incompatible_pair(self, client: Client) -> tuple[int, str, int, str]:
        """(A, its version, B, its version): A declares itself incompatible with B; both install
        alone (no required dependency) and need no signed-in user."""

        def alone(post_id: int) -> bool:
            return (
                self.installable(post_id) is not None
                and not any(
                    r.get("relationType") == "DEPENDENCY" and r.get("isRequired")
                    for r in self.rel(client, post_id)
                )
                and client.download_auth(post_id)["deniedReason"] is None
            )

        for a in self.files:
            if self.installable(a) is None:
                continue
            for r in self.rel(client, a):
                b = int(r["targetPostId"])
                if r.get("relationType") == "INCOMPATIBLE" and alone(b) and alone(a):
                    return a, str(self.installable(a)), b, str(self.installable(b))
        raise LookupError("the demo catalogue has no installable incompatible pair")

    def with_update(self) -> tuple[int, str, str, Any, Any]:
        """A mod (no relations needed) with two on-site files for one game version and loader:
        (postId, version, loader, older file, newest file)."""
        for post_id, files in self.files.items():
            groups: dict[tuple[str, str], list[Any]] = collections.defaultdict(list)
            for f in files:
                if f["storageType"] == "DIRECT_UPLOAD" and f.get("runPlatform"):
                    for version in f["resourceVersions"] or []:
                        groups[(version, f["runPlatform"])].append(f)
            for (version, loader), group in groups.items():
                newest = pick_file(files, version, loader, None)
                if len(group) > 1 and newest is not None:
                    older = min(group, key=lambda f: f["fileInfoId"])
                    if older["fileInfoId"] != newest["fileInfoId"]:
                        return post_id, version, loader, older, newest
        raise LookupError("the demo catalogue has no mod with two files for one version")


@pytest.fixture(scope="session")
def catalogue(server: EmbeddedServer) -> Catalogue:
    with server.client() as c:
        ids = [change.post_id for change in c.walk_sync(size=200) if change.kind == "changed"]
        return Catalogue({post_id: c.list_files(post_id) for post_id in ids})
