"""The run's plugin (loaded with `-p tests.run_order` from setup.cfg): how many xdist workers,
the order the tests run in (longest first, the tests that mostly wait spaced out), and the
recording of each test's wall and CPU seconds into tests/durations.json.

Refresh the durations after tests were added or changed a lot (only the order depends on them):
    MODHUB_RECORD_DURATIONS=1 .venv/bin/pytest
"""

from __future__ import annotations

import json
import os
import resource
from pathlib import Path

import pytest

WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")  # "gw0", "gw1"... under pytest-xdist


@pytest.hookimpl(tryfirst=True)  # before xdist's own (a first-result hook): it would answer 2
def pytest_xdist_auto_num_workers(config):
    """`-n auto`: three workers per two cores. Some long tests wait (on a worker process, a
    private PostgreSQL or Redis, a production-timed sweep, Chromium), so a few more workers than
    cores keep the cores busy meanwhile; but each worker costs its own collection, app builds and
    database, and the run is CPU-bound (2 cores, longest first, one run each: 6 workers 4m53s and
    CPU user+sys 453 s, 4 workers 4m10s and 399 s, 3 workers 4m00s and 372 s).
    PYTEST_XDIST_AUTO_NUM_WORKERS still decides when set."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return int(os.environ["PYTEST_XDIST_AUTO_NUM_WORKERS"])
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    if "not slow" in (config.getoption("markexpr", "") or ""):
        return cores  # the quick loop computes more than it waits: one worker per core
    return max(cores * 3 // 2, 1)


# One Hypothesis folder for every process of the run, the `st` processes included (they run in
# folders of their own): Hypothesis keeps its Unicode tables there, which take 1.8 s of CPU to
# compute when missing. The controller computes them while the workers collect.
HYPOTHESIS_FOLDER = Path(__file__).resolve().parents[1] / ".hypothesis"
os.environ.setdefault("HYPOTHESIS_STORAGE_DIRECTORY", str(HYPOTHESIS_FOLDER))


@pytest.hookimpl(trylast=True)  # after Hypothesis's own: its start-up is over
def pytest_sessionstart(session):
    if not WORKER:
        from hypothesis import strategies

        strategies.characters(codec="utf-8").validate()  # reads the tables, or writes them once


# The run's order: longest first, so that no long test is the run's tail (longest processing time
# first), with the tests that mostly wait spread out (below). tests/durations.json holds, for every
# test that took more than a second, its measured wall seconds and CPU seconds (setup, call and
# teardown; the CPU of the worker and of the processes it started and reaped); the others follow,
# slow ones first, each group in collection order. pytest-xdist's `load` scheduling hands out items
# in this order; with `--maxschedchunk 1` (setup.cfg) each worker holds the test it runs and one
# more. Refresh the file after tests were added or changed a lot (only the order depends on it):
#     MODHUB_RECORD_DURATIONS=1 .venv/bin/pytest
DURATIONS = Path(__file__).with_name("durations.json")
WAITER = 4.0  # a test that waits this many seconds more than it computes, computing under half of
# its time: a fault test's pauses, a server process's start or drain, a sweep's period. The CPU of
# Chromium and of the shared `st` server is not counted in a test's: UNCOUNTED adds an estimate of
# it for the tests using those fixtures (Chromium: about 47 CPU-s over the 9 browser tests).
UNCOUNTED = {"browser": 5.0, "live": 6.0}
SHORT = 0.075  # the mean wall time of a test under a second (not in DURATIONS), for the clock


@pytest.hookimpl(trylast=True)  # after the conftests' markers (a browser test is `slow`)
def pytest_collection_modifyitems(items):
    """The run's order (DURATIONS)."""
    measured = json.loads(DURATIONS.read_text()) if DURATIONS.exists() else {}
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT") or 1)
    items[:] = run_order(items, measured, workers)


def run_order(items: list, measured: dict, workers: int) -> list:
    """Longest first; but a test that mostly waits (WAITER) starts only once the previous one has
    ended, counted on a clock that advances by each placed test's wall time over `workers`: two
    waiting tests side by side left both cores idle for half a minute, and the fault and process
    tests of 6 to 8 s, ranked together, ran side by side with the longest waiters (the cores a
    third idle for 30 s of the suite). Meanwhile the other workers take the tests that compute."""

    def wall(item) -> float:
        return measured.get(item.nodeid, (0.0, 0.0))[0]

    def waits(item) -> bool:
        took, cpu = measured.get(item.nodeid, (0.0, 0.0))
        cpu += sum(UNCOUNTED.get(name, 0.0) for name in getattr(item, "fixturenames", ()))
        return took - cpu >= WAITER and cpu < took / 2

    ranked = sorted(items, key=lambda item: (-wall(item), 0 if item.get_closest_marker("slow") else 1))
    order, held, clock, waiter_ends = [], [], 0.0, 0.0
    for item in ranked:
        if waits(item):
            held.append(item)  # the waiters queue, in rank order
        else:
            order.append(item)
            clock += (wall(item) or SHORT) / workers
        while held and clock >= waiter_ends:  # the previous waiter has ended: the next one starts
            order.append(held.pop(0))
            waiter_ends = clock + wall(order[-1])
            clock += wall(order[-1]) / workers
    return order + held


_took: dict[str, list[float]] = {}


def _cpu() -> float:
    own, reaped = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + reaped.ru_utime + reaped.ru_stime


if os.environ.get("MODHUB_RECORD_DURATIONS"):  # each phase's CPU, carried to the controller

    def _phase_cpu(item):
        start = _cpu()
        yield
        item.user_properties.append(("cpu", _cpu() - start))

    pytest_runtest_setup = pytest.hookimpl(hookwrapper=True)(_phase_cpu)
    pytest_runtest_call = pytest.hookimpl(hookwrapper=True)(_phase_cpu)
    pytest_runtest_teardown = pytest.hookimpl(hookwrapper=True)(_phase_cpu)


def pytest_runtest_logreport(report):
    if os.environ.get("MODHUB_RECORD_DURATIONS") and not WORKER:  # the controller: every report
        took = _took.setdefault(report.nodeid, [0.0, 0.0])
        took[0] += report.duration
        if report.when == "teardown":  # it carries the CPU of the three phases
            took[1] = sum(value for name, value in report.user_properties if name == "cpu")


def pytest_sessionfinish(session):
    if _took:
        lines = [
            f"{json.dumps(k)}: [{wall:.1f}, {cpu:.1f}]"
            for k, (wall, cpu) in sorted(_took.items(), key=lambda kv: -kv[1][0])
            if wall > 1
        ]
        DURATIONS.write_text("{\n" + ",\n".join(lines) + "\n}\n")  # one test per line
