"""config/gc_policy.py: what survives a full collection is frozen (later full passes
walk only what is new), and every UNFREEZE_SECONDS the collector sees everything
once, so a cycle that died while frozen is still collected."""

import gc

import pytest

from config import gc_policy


@pytest.fixture
def policy(monkeypatch):
    callbacks = [c for c in gc.callbacks if c is not gc_policy._after_full_pass]
    gc.callbacks[:] = callbacks  # installed by an earlier import: start from none
    monkeypatch.setattr(gc_policy, "_state", {"installed": False, "unfrozen_at": 0.0})
    monkeypatch.setattr(gc_policy, "ENABLED", True)
    enabled = gc.isenabled()
    gc.disable()  # only the passes the test asks for (an automatic one would freeze in between)
    yield gc_policy
    gc.callbacks[:] = callbacks
    gc.unfreeze()
    if enabled:
        gc.enable()


class Node:
    def __init__(self):
        self.me = self  # a cycle: only the cyclic collector frees it


def test_the_policy_can_be_turned_off(policy, monkeypatch):
    monkeypatch.setattr(policy, "ENABLED", False)
    policy.install()
    assert policy._after_full_pass not in gc.callbacks and not policy._state["installed"]


def test_survivors_of_a_full_pass_are_frozen_and_periodically_handed_back(policy, monkeypatch):
    clock = [1000.0]
    monkeypatch.setattr(policy.time, "monotonic", lambda: clock[0])
    policy.install()
    policy.install()  # idempotent: one callback
    assert gc.callbacks.count(policy._after_full_pass) == 1
    frozen = gc.get_freeze_count()
    assert frozen > 0

    keep = [Node() for _ in range(100)]
    gc.collect(2)
    assert gc.get_freeze_count() >= frozen + 100  # the survivors joined the frozen

    gc.collect(1)  # a younger pass freezes nothing (frozen objects may still be freed)
    after_young = gc.get_freeze_count()
    gc.collect(1)
    assert gc.get_freeze_count() <= after_young

    del keep  # cycles that die frozen are not collected...
    clock[0] += policy.UNFREEZE_SECONDS
    gc.collect(2)  # ...until the period is over: this pass hands everything back
    assert gc.get_freeze_count() == 0
    found = gc.collect(2)  # the next full pass sees them, then freezes again
    assert found >= 100 and gc.get_freeze_count() > 0
