"""The test run's order (tests/run_order.py): longest first, the tests that mostly wait
spread out so that two of them never run side by side."""

from __future__ import annotations

import os
from dataclasses import dataclass

from tests.run_order import run_order


@dataclass
class Item:
    nodeid: str
    slow: bool = False
    fixturenames: tuple[str, ...] = ()

    def get_closest_marker(self, name):
        return name == "slow" and self.slow or None


MEASURED = {  # wall, CPU
    "wait-a": [40.0, 3.0],
    "wait-b": [25.0, 1.0],
    "wait-c": [12.0, 1.0],
    "fuzz-1": [20.0, 11.0],
    "fuzz-2": [18.0, 15.0],
    "fuzz-3": [16.0, 8.0],
    "fuzz-4": [14.0, 12.0],
    "browser": [15.0, 3.5],  # with its Chromium's CPU (not counted: estimated) not a waiter
    "fault": [8.0, 1.0],  # a process test's pauses: a waiter too
}
FIXTURES = {"browser": ("browser", "site")}


def _ids(items):
    return [item.nodeid for item in items]


def test_longest_first_then_slow_then_the_rest_in_collection_order():
    items = [Item("quick-1"), Item("quick-slow", slow=True), Item("fuzz-3"), Item("fuzz-1"), Item("quick-2")]
    want = ["fuzz-1", "fuzz-3", "quick-slow", "quick-1", "quick-2"]
    assert _ids(run_order(items, MEASURED, workers=3)) == want


def test_a_waiting_test_starts_once_the_previous_one_has_ended():
    items = [Item(name, fixturenames=FIXTURES.get(name, ())) for name in MEASURED]
    order = _ids(run_order(items, MEASURED, workers=2))
    assert order[0] == "wait-a"
    # wait-a ends at 40 s; on the clock (placed wall time over 2 workers) the others fill the time
    clock, starts = 0.0, {}
    for name in order:
        starts[name] = clock
        clock += MEASURED[name][0] / 2
    assert starts["wait-b"] >= starts["wait-a"] + 40
    assert starts["wait-c"] >= starts["wait-b"] + 25 or starts["wait-c"] == max(starts.values())
    assert starts["fault"] >= starts["wait-c"] + 12 or starts["fault"] == max(starts.values())
    # the others keep their rank: a browser test (its Chromium's CPU is not counted) is not held
    assert [name for name in order if not name.startswith(("wait", "fault"))] == [
        "fuzz-1",
        "fuzz-2",
        "fuzz-3",
        "browser",
        "fuzz-4",
    ]
    assert sorted(order) == sorted(MEASURED)  # nothing lost


def test_without_measurements_the_order_is_slow_first_in_collection_order():
    items = [Item("a"), Item("b", slow=True), Item("c")]
    assert _ids(run_order(items, {}, workers=3)) == ["b", "a", "c"]


def test_auto_is_three_workers_per_two_cores(pytestconfig, monkeypatch):
    """`-n auto` asks the run's hook first (xdist's own would answer the core count)."""
    monkeypatch.delenv("PYTEST_XDIST_AUTO_NUM_WORKERS", raising=False)
    cores = len(os.sched_getaffinity(0))
    quick = "not slow" in (pytestconfig.getoption("markexpr", "") or "")
    expected = cores if quick else max(cores * 3 // 2, 1)
    assert pytestconfig.hook.pytest_xdist_auto_num_workers(config=pytestconfig) == expected
