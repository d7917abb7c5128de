"""The collector's settings in a run's long-lived processes (bpe_kata/child/gc_policy.py)."""

from __future__ import annotations

import gc

import pytest

from bpe_kata.child import gc_policy


@pytest.fixture
def collector():
    """The process's collector as it was, put back after the test."""
    enabled, thresholds = gc.isenabled(), gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*thresholds)
    (gc.enable if enabled else gc.disable)()


def test_settle_freezes_what_is_alive_and_collects_the_young_less_often(collector):
    gc.enable()
    gc.set_threshold(700, 10, 10)
    table = [[k] for k in range(1000)]  # a table loaded before the tests: tracked containers
    gc_policy.settle()
    assert gc.get_freeze_count() >= len(table)
    assert gc.get_threshold() == (gc_policy.YOUNG_THRESHOLD, 10, 10)


def test_a_higher_threshold_already_set_is_kept(collector):
    gc.enable()
    gc.set_threshold(50_000, 10, 10)
    gc_policy.settle()
    assert gc.get_threshold()[0] == 50_000


def test_a_collector_switched_off_is_left_alone(collector):
    gc.disable()
    gc.unfreeze()
    gc.set_threshold(700, 10, 10)
    gc_policy.settle()
    gc_policy.freeze()
    assert (gc.isenabled(), gc.get_freeze_count(), gc.get_threshold()) == (False, 0, (700, 10, 10))
