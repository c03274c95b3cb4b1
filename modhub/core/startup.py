"""Start-up with the cyclic garbage collector paused.

Building the app or a command's platform (the imports, the parsed contract, the validators, the
mappers: ~150,000 objects) makes objects that live as long as the process. Meanwhile the
collector's passes only walk them again and again: a sixth of a server process's start-up CPU
(measured, `modhub.asgi:create` on SQLite: 1.03 s -> 0.86 s). Afterwards they are frozen, kept out
of the collector's full passes, which otherwise walk all of it (measured 30-80 ms each, a
request's worth of stall at the tail).
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


def freeze_survivors() -> None:
    """One collection, then what survived is frozen: out of the collector's passes for good."""
    gc.collect()
    gc.freeze()


@contextmanager
def collector_paused() -> Iterator[None]:
    """No collection inside; on leaving (even by an exception), one pass, what survived frozen,
    the collector on again (unless it was off already)."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        freeze_survivors()
        if was_on:
            gc.enable()
