"""Client processes for the concurrency tests: several processes, each sending its share of signed
POSTs from several threads at once. A spawned child imports this module and
tests.signing only (not the app), so it starts in a fraction of a second."""

from __future__ import annotations

import multiprocessing
from concurrent.futures import ThreadPoolExecutor

from tests.signing import Creds, signed_post, use_timestamp_lane


def _burst(base: str, creds: tuple, jobs: list[tuple], lane: int, lanes: int, threads: int) -> list[int]:
    """In a child process: POST each (path, headers, body) job from `threads` threads at once."""
    use_timestamp_lane(lane, lanes)  # a signed write is accepted once: distinct timestamps
    signer = Creds(*creds)

    def send(job):
        path, headers, body = job
        return signed_post(base, signer, path, headers, body).status_code

    with ThreadPoolExecutor(threads) as pool:
        return list(pool.map(send, jobs))


def burst(bases: list[str], creds: Creds, jobs: list[tuple], processes: int, threads: int) -> list[int]:
    """Send the (path, headers, body) jobs as signed POSTs from `processes` spawned client processes
    of `threads` threads each, spread over the servers at `bases`; the status codes, in job order."""
    args = [
        (
            bases[i % len(bases)],
            (creds.app_id, creds.api_key, creds.secret_key),
            jobs[i::processes],
            i,
            processes,
            threads,
        )
        for i in range(processes)
    ]
    with multiprocessing.get_context("spawn").Pool(processes) as pool:
        chunks = pool.starmap(_burst, args)
    statuses = [0] * len(jobs)
    for i, chunk in enumerate(chunks):
        statuses[i::processes] = chunk
    return statuses
