"""modhub.core.startup.collector_paused: start-up with the cyclic collector off, then frozen."""

import gc
import weakref

import pytest

from modhub.core.startup import collector_paused


@pytest.fixture(autouse=True)
def collector_on():
    """Each test starts with the collector on, and leaves it on."""
    gc.enable()
    yield
    gc.enable()


class Cycle:
    def __init__(self):
        self.me = self


def test_off_inside_then_on_with_what_was_built_frozen():
    frozen = gc.get_freeze_count()
    with collector_paused():
        assert not gc.isenabled()
        built = [Cycle() for _ in range(1000)]
    assert gc.isenabled()
    assert gc.get_freeze_count() >= frozen + len(built)  # kept out of the collector's passes


def test_garbage_made_meanwhile_is_collected_before_the_freeze():
    with collector_paused():
        garbage = weakref.ref(Cycle())  # unreachable at once: only the collector frees a cycle
        assert garbage() is not None  # not collected while paused
    assert garbage() is None  # collected, not frozen for the process's life


def test_an_exception_still_turns_it_on_again():
    with pytest.raises(RuntimeError), collector_paused():
        raise RuntimeError("start-up failed")
    assert gc.isenabled()


def test_nested_the_inner_one_leaves_it_off():
    with collector_paused():
        with collector_paused():
            pass
        assert not gc.isenabled()  # the outer start-up is still going on
    assert gc.isenabled()


def test_off_before_stays_off():
    gc.disable()
    with collector_paused():
        pass
    assert not gc.isenabled()
