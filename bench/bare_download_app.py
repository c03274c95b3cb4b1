"""Baseline of bench/downloads.py: a bare Starlette app answering every GET with a FileResponse
of MODHUB_BENCH_FILE (no signature, no database, no range logic of ours)."""

import os

from starlette.applications import Starlette
from starlette.responses import FileResponse
from starlette.routing import Route


async def whole_file(_request):
    """The benchmark file."""
    return FileResponse(os.environ["MODHUB_BENCH_FILE"], filename="bench.bin")


app = Starlette(routes=[Route("/{path:path}", whole_file)])
