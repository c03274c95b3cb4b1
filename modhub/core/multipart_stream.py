"""One file part of a multipart/form-data body, read as a stream while the body arrives.

Werkzeug's sans-IO decoder parses the body chunk by chunk; only the named file part's bytes are
handed out through `read()`, so a storage backend can hash and spool them without the body ever
being held whole in memory. Other parts are skipped (at most MAX_OTHER_BYTES of them).
"""

from __future__ import annotations

from typing import IO

from werkzeug.exceptions import ClientDisconnected
from werkzeug.sansio.multipart import NEED_DATA, Data, Epilogue, Field, File, MultipartDecoder

CHUNK = 256 * 1024
MAX_OTHER_BYTES = 64 * 1024


class MultipartError(ValueError):
    """The body is not a well-formed multipart body with the expected file part."""


class BodyIncomplete(ValueError):
    """The client stopped sending before the whole body arrived."""


class FilePartReader:
    """`read(n)` over the bytes of the part named `field` of a multipart body read from `source`."""

    def __init__(self, source: IO[bytes], boundary: str, *, field: str = "file") -> None:
        self._source = source
        self._decoder = MultipartDecoder(boundary.encode("latin-1"), max_parts=16)
        self._field = field
        self._buffer = bytearray()
        self._in_file = False  # inside the wanted part
        self._skipping = False  # inside another part
        self._other = 0
        self._done = False  # the wanted part ended
        self._eof = False  # the whole body was read
        self.found = False
        self.filename: str | None = None

    def _feed(self) -> bool:
        """Pass one chunk of the body to the decoder; False at the end of the body."""
        try:
            chunk = self._source.read(CHUNK)
        except ClientDisconnected as exc:
            raise BodyIncomplete("the request body ended early") from exc
        self._decoder.receive_data(chunk or None)
        return bool(chunk)

    def _pump(self) -> None:
        """Decode events until the buffer holds data, the wanted part ends, or the body ends."""
        while not self._buffer and not self._done:
            try:
                event = self._decoder.next_event()
            except ValueError as exc:  # werkzeug raises ValueError on a malformed body
                raise MultipartError(f"malformed multipart body: {exc}") from exc
            if event is NEED_DATA:
                if self._eof:
                    raise MultipartError("the multipart body ends before its closing boundary")
                self._eof = not self._feed()
            elif isinstance(event, File | Field):
                self._in_file = isinstance(event, File) and event.name == self._field
                self._skipping = not self._in_file
                if isinstance(event, File) and self._in_file:
                    if self.found:
                        raise MultipartError(f"more than one part named {self._field}")
                    self.found, self.filename = True, event.filename
            elif isinstance(event, Data):
                if self._in_file:
                    self._buffer += event.data
                    if not event.more_data:
                        self._done = True
                else:
                    self._other += len(event.data)
                    if self._other > MAX_OTHER_BYTES:
                        raise MultipartError(f"parts other than {self._field} exceed {MAX_OTHER_BYTES} bytes")
            elif isinstance(event, Epilogue):
                if not self.found:
                    raise MultipartError(f"the multipart body has no file part named {self._field}")
                self._done = True

    def read(self, size: int = -1) -> bytes:
        """Up to size bytes of the file part (all that is buffered when size < 0); b"" at its end."""
        self._pump()
        if size is None or size < 0 or size >= len(self._buffer):
            out = bytes(self._buffer)
            self._buffer.clear()
            return out
        out = bytes(self._buffer[:size])
        del self._buffer[:size]
        return out
