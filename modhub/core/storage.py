"""File storage: one small interface, an embedded disk backend and an S3-compatible backend.

Objects are content-addressed: the key is the lowercase sha256 hex of the bytes, so the same
bytes are stored once. `put` computes size, sha1, sha256 and sha512 while streaming; nothing
holds a whole file in memory. The disk backend's download URLs point at the app itself
(`/storage/<key>`) and carry an HMAC signature over key, expiry and file name; the S3 backend
hands out presigned GET URLs.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import tempfile
import urllib.parse
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO, Protocol

from modhub.core.storage_settings import StorageSettings
from modhub.core.url_signing import UrlSigner  # the disk backend's signed URLs

CHUNK = 256 * 1024
KEY_RE = re.compile(r"^[0-9a-f]{64}$")
BLOB_PATH = "/storage/"


class StorageError(RuntimeError):
    """The storage backend failed or is misconfigured."""


class ObjectMissing(StorageError):
    """No object is stored under the key."""


class ContentMismatch(StorageError):
    """The streamed bytes are not the expected ones (size or sha256); nothing was stored."""

    def __init__(self, what: str, message: str):
        super().__init__(message)
        self.what = what  # "size" or "sha256"


@dataclass(frozen=True)
class Expected:
    """What a verified `put` must receive: the exact size and sha256 (lowercase hex)."""

    size: int
    sha256: str


@dataclass(frozen=True)
class StoredObject:
    """What `put` stored: the key (the sha256) and the size and digests of the bytes."""

    key: str
    size: int
    sha1: str
    sha256: str
    sha512: str


class Readable(Protocol):
    """What `put` reads its bytes from: a binary file, or a multipart part streamed from a request
    (modhub.core.multipart_stream.FilePartReader)."""

    def read(self, size: int = -1, /) -> bytes: ...


class Storage(Protocol):
    """The storage interface every backend implements."""

    kind: str

    def put(self, stream: Readable, expect: Expected | None = None) -> StoredObject: ...

    def open(self, key: str, start: int = 0, end: int | None = None) -> Iterator[bytes]: ...

    def size(self, key: str) -> int: ...

    def url(self, key: str, *, expires_in: int, filename: str | None = None) -> str: ...

    def delete(self, key: str) -> None: ...


class _Hasher:
    """Size and the three digests of a byte stream, updated chunk by chunk."""

    def __init__(self) -> None:
        self.size = 0
        self._h = (hashlib.sha1(), hashlib.sha256(), hashlib.sha512())

    def update(self, chunk: bytes) -> None:
        self.size += len(chunk)
        for h in self._h:
            h.update(chunk)

    def result(self) -> StoredObject:
        sha1, sha256, sha512 = (h.hexdigest() for h in self._h)
        return StoredObject(key=sha256, size=self.size, sha1=sha1, sha256=sha256, sha512=sha512)


def _spool(
    stream: Readable, directory: Path | None, expect: Expected | None = None
) -> tuple[StoredObject, str]:
    """Copy a stream into a temporary file, hashing on the way; returns the digests and path.

    With `expect`, more bytes than expected stop the copy at once, and a size or sha256 that
    differs at the end raises ContentMismatch; the temporary file is removed either way, so
    nothing reaches the content address.
    """
    hasher = _Hasher()
    fd, tmp = tempfile.mkstemp(prefix="upload-", dir=directory)
    try:
        with os.fdopen(fd, "wb") as out:
            while chunk := stream.read(CHUNK):
                hasher.update(chunk)
                if expect is not None and hasher.size > expect.size:
                    raise ContentMismatch("size", f"more than the expected {expect.size} bytes")
                out.write(chunk)
        obj = hasher.result()
        if expect is not None and obj.size != expect.size:
            raise ContentMismatch("size", f"{obj.size} bytes received, {expect.size} expected")
        if expect is not None and obj.sha256 != expect.sha256:
            raise ContentMismatch("sha256", f"sha256 {obj.sha256} received, {expect.sha256} expected")
    except BaseException:
        os.unlink(tmp)
        raise
    return obj, tmp


def check_key(key: str) -> str:
    """The key if it is a lowercase sha256 hex string; ObjectMissing otherwise."""
    if not isinstance(key, str) or not KEY_RE.match(key):
        raise ObjectMissing(key)
    return key


class DiskStorage:
    """Content-addressed folder: <root>/<ab>/<cd>/<sha256>; URLs served by the app, signed."""

    kind = "disk"

    def __init__(self, root: Path, *, signer: UrlSigner, base_url: str = "", spool_dir: Path | None = None):
        self.root = Path(root)
        self.signer = signer
        self.base_url = base_url.rstrip("/")
        self._spool_dir = Path(spool_dir) if spool_dir else None

    def path(self, key: str) -> Path:
        """The file path of a key."""
        check_key(key)
        return self.root / key[:2] / key[2:4] / key

    @property
    def spool_dir(self) -> Path:
        """Where uploads are spooled before they reach their content address (MODHUB_SPOOL_DIR,
        else a folder beside the objects: the same file system, so the final move is a rename)."""
        return self._spool_dir or self.root / "tmp"

    def put(self, stream: Readable, expect: Expected | None = None) -> StoredObject:
        """Store a stream once per content; returns its key, size and digests."""
        tmpdir = self.spool_dir
        tmpdir.mkdir(parents=True, exist_ok=True)
        obj, tmp = _spool(stream, tmpdir, expect)
        target = self.path(obj.key)
        if target.exists():
            os.unlink(tmp)
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.move(tmp, target)  # a rename, or a copy when the spool is on another file system
        return obj

    def size(self, key: str) -> int:
        """The stored size in bytes."""
        try:
            return self.path(key).stat().st_size
        except FileNotFoundError as exc:
            raise ObjectMissing(key) from exc

    def open(self, key: str, start: int = 0, end: int | None = None) -> Iterator[bytes]:
        """Chunks of bytes start..end (inclusive; end None = to the end of the object)."""
        try:
            fh = self.path(key).open("rb")
        except FileNotFoundError as exc:
            raise ObjectMissing(key) from exc
        return _read_range(fh, start, end)

    def url(self, key: str, *, expires_in: int, filename: str | None = None) -> str:
        """An app-served URL signed with HMAC, valid for expires_in seconds."""
        check_key(key)
        query = self.signer.query(key, expires_in=expires_in, filename=filename)
        return f"{self.base_url}{BLOB_PATH}{key}?{query}"

    def delete(self, key: str) -> None:
        """Remove the object (no error when it is already gone)."""
        self.path(key).unlink(missing_ok=True)


def _read_range(fh: BinaryIO, start: int, end: int | None) -> Iterator[bytes]:
    with fh:
        fh.seek(start)
        left = None if end is None else end - start + 1
        while left is None or left > 0:
            chunk = fh.read(CHUNK if left is None else min(CHUNK, left))
            if not chunk:
                return
            if left is not None:
                left -= len(chunk)
            yield chunk


class S3Storage:
    """Any S3-compatible store through boto3; URLs are presigned GETs."""

    kind = "s3"

    # client: a boto3 S3 client (boto3 ships no types)
    def __init__(self, bucket: str, *, client: Any, prefix: str = "", spool_dir: Path | None = None) -> None:
        self.bucket = bucket
        self.client = client
        self.prefix = prefix.strip("/") + "/" if prefix.strip("/") else ""
        self.spool_dir = spool_dir

    def _name(self, key: str) -> str:
        return self.prefix + check_key(key)

    def _missing(self, exc: Exception) -> bool:
        # a ClientError carries the answer; a connection failure has no response at all (None)
        code = (getattr(exc, "response", None) or {}).get("Error", {}).get("Code", "")
        return code in ("404", "NoSuchKey", "NotFound")

    def put(self, stream: Readable, expect: Expected | None = None) -> StoredObject:
        """Spool to a temporary file while hashing, then upload once per content."""
        obj, tmp = _spool(stream, self.spool_dir, expect)
        try:
            try:
                self.client.head_object(Bucket=self.bucket, Key=self._name(obj.key))
            except Exception as exc:  # noqa: BLE001 - botocore ClientError, tested by code
                if not self._missing(exc):
                    raise StorageError(f"s3 head failed: {exc}") from exc
                self.client.upload_file(tmp, self.bucket, self._name(obj.key))
        finally:
            os.unlink(tmp)
        return obj

    def size(self, key: str) -> int:
        """The stored size in bytes."""
        name = self._name(key)
        try:
            return int(self.client.head_object(Bucket=self.bucket, Key=name)["ContentLength"])
        except Exception as exc:  # noqa: BLE001
            if self._missing(exc):
                raise ObjectMissing(key) from exc
            raise StorageError(f"s3 head failed: {exc}") from exc

    def open(self, key: str, start: int = 0, end: int | None = None) -> Iterator[bytes]:
        """Chunks of bytes start..end (inclusive) through a ranged GET."""
        args = {"Bucket": self.bucket, "Key": self._name(key)}
        if start or end is not None:  # an empty object has no satisfiable range
            args["Range"] = f"bytes={start}-{'' if end is None else end}"
        try:
            body = self.client.get_object(**args)["Body"]
        except Exception as exc:  # noqa: BLE001
            if self._missing(exc):
                raise ObjectMissing(key) from exc
            raise StorageError(f"s3 get failed: {exc}") from exc
        return _iter_body(body)

    def url(self, key: str, *, expires_in: int, filename: str | None = None) -> str:
        """A presigned GET URL valid for expires_in seconds."""
        params = {"Bucket": self.bucket, "Key": self._name(key)}
        if filename:
            params["ResponseContentDisposition"] = content_disposition(filename)
        url: str = self.client.generate_presigned_url("get_object", Params=params, ExpiresIn=int(expires_in))
        return url

    def delete(self, key: str) -> None:
        """Remove the object (S3 answers success when it is already gone)."""
        self.client.delete_object(Bucket=self.bucket, Key=self._name(key))


def _iter_body(body: Any) -> Iterator[bytes]:  # botocore's StreamingBody (untyped)
    try:
        yield from body.iter_chunks(CHUNK)
    finally:
        body.close()


def content_disposition(filename: str) -> str:
    """An attachment Content-Disposition with an ASCII fallback and the RFC 5987 UTF-8 name."""
    ascii_name = filename.encode("ascii", "replace").decode().replace('"', "_").replace("?", "_")
    return f"attachment; filename=\"{ascii_name}\"; filename*=UTF-8''{urllib.parse.quote(filename, safe='')}"


def from_settings(settings: StorageSettings) -> Storage:
    """The backend named by MODHUB_STORAGE_URL: empty = disk under the data folder, s3://bucket."""
    signer = UrlSigner.from_encryption_key(settings.encryption_key)
    url = settings.storage_url
    if not url:
        return DiskStorage(
            Path(settings.data_dir) / "files",
            signer=signer,
            base_url=settings.base_url,
            spool_dir=settings.spool_dir,
        )
    parsed = urllib.parse.urlparse(url)
    if parsed.scheme != "s3" or not parsed.netloc:
        raise StorageError(f"MODHUB_STORAGE_URL must be empty or s3://bucket[/prefix], got {url!r}")
    import boto3  # imported here: the embedded mode never needs it
    from botocore.config import Config

    client = boto3.client(
        "s3",
        endpoint_url=settings.s3_endpoint_url or None,
        region_name=settings.s3_region or None,
        aws_access_key_id=settings.s3_access_key_id or None,
        aws_secret_access_key=settings.s3_secret_access_key or None,
        config=Config(
            signature_version="s3v4",
            s3={"addressing_style": "path"},
            connect_timeout=settings.s3_connect_timeout_seconds,
            read_timeout=settings.s3_read_timeout_seconds,
            retries={"mode": "standard", "total_max_attempts": settings.s3_max_attempts},
        ),
    )
    spool = Path(settings.spool_dir or Path(settings.data_dir) / "spool")
    spool.mkdir(parents=True, exist_ok=True)
    return S3Storage(parsed.netloc, client=client, prefix=parsed.path, spool_dir=spool)
