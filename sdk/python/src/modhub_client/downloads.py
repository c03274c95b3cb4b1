"""Hash checks of downloaded files: sha1, sha256 and sha512, computed while streaming."""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from modhub_client.errors import HashMismatch

ALGORITHMS = ("sha1", "sha256", "sha512")
CHUNK = 1 << 16
Progress = Callable[[int, int | None], None]  # (bytes so far, total or None)


def expected_hashes(file: Mapping[str, object]) -> dict[str, str]:
    """The digests a FileSummaryVO / InstallFileInfo / DownloadInfo publishes (hashes, sha256)."""
    out: dict[str, str] = {}
    hashes = file.get("hashes")
    if isinstance(hashes, Mapping):
        out.update({k: str(v).lower() for k, v in hashes.items() if k in ALGORITHMS and v})
    sha256 = file.get("sha256") or file.get("fingerprint")
    if sha256 and "sha256" not in out:
        out["sha256"] = str(sha256).lower()
    return out


class Hasher:
    """sha1, sha256 and sha512 of a stream, updated chunk by chunk."""

    def __init__(self) -> None:
        self.digests = {name: hashlib.new(name) for name in ALGORITHMS}
        self.size = 0

    def update(self, chunk: bytes) -> None:
        """Feed bytes."""
        for digest in self.digests.values():
            digest.update(chunk)
        self.size += len(chunk)

    def feed_file(self, path: Path) -> None:
        """Feed a file's bytes (the part of a download already on disk)."""
        with open(path, "rb") as handle:
            while chunk := handle.read(CHUNK):
                self.update(chunk)

    def hexdigests(self) -> dict[str, str]:
        """Lower-case hex digests by algorithm."""
        return {name: digest.hexdigest() for name, digest in self.digests.items()}


def check(path: Path | str, actual: Mapping[str, str], expected: Mapping[str, str]) -> None:
    """Raise HashMismatch on the first published digest that differs (constant-time compare)."""
    for name, value in expected.items():
        got = actual.get(name)
        if got is not None and not hmac.compare_digest(got, value.lower()):
            raise HashMismatch(str(path), name, value.lower(), got)


def hash_file(path: Path | str) -> dict[str, str]:
    """sha1, sha256 and sha512 of a file on disk."""
    hasher = Hasher()
    hasher.feed_file(Path(path))
    return hasher.hexdigests()


def verify_file(path: Path | str, expected: Mapping[str, str]) -> dict[str, str]:
    """Re-hash a file on disk against published digests; returns the digests."""
    actual = hash_file(path)
    check(path, actual, expected)
    return actual


@dataclass
class Downloaded:
    """A verified download: where it is, its size and its digests."""

    path: Path
    size: int
    hashes: dict[str, str]
    resumed_from: int = 0


def part_path(dest: Path) -> Path:
    """Where a download in progress is kept (resumed from there with Range)."""
    return dest.with_name(dest.name + ".part")
