"""A gate's xdist worker and its child share one CPU (bpe_kata/run/cpu_pairs.py), only where that crowds nothing."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from bpe_kata.run import cpu_pairs

pytestmark = pytest.mark.skipif(not hasattr(os, "sched_setaffinity"), reason="no CPU affinity on this platform")


def worker(index: int, count: int) -> dict:
    return {"workerid": f"gw{index}", "workercount": count}


def test_worker_k_keeps_the_kth_cpu_it_may_use():
    assert cpu_pairs.cpu_for(worker(0, 2), {4, 7}) == 4
    assert cpu_pairs.cpu_for(worker(1, 2), {7, 4}) == 7
    assert cpu_pairs.cpu_for(worker(1, 2), {0, 1, 2, 3}) == 1


@pytest.mark.parametrize("workerinput, allowed", [
    (None, {0, 1}),  # not an xdist worker: -n 0, or the controller
    (worker(0, 3), {0, 1}),  # more workers than CPUs: pinning would stack two workers on one
    (worker(2, 2), {0, 1, 2}),  # an id past the count
    ({"workerid": "main", "workercount": 1}, {0}),
    ({"workerid": "gw0"}, {0, 1}),
])
def test_no_cpu_where_pinning_could_crowd(workerinput, allowed):
    assert cpu_pairs.cpu_for(workerinput, allowed) is None


PIN_AND_SHOW = """
import os, subprocess, sys
from bpe_kata.run import cpu_pairs
SHOW = "import os, sys; sys.stdin.read(); print(sorted(os.sched_getaffinity(0)))"
cpu = cpu_pairs.pin_worker({"workerid": "gw1", "workercount": 2})
inherits = subprocess.Popen([sys.executable, "-c", SHOW], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
released = subprocess.Popen([sys.executable, "-c", SHOW], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
cpu_pairs.release(released.pid)
print(cpu, sorted(os.sched_getaffinity(0)), inherits.communicate("")[0].strip(), released.communicate("")[0].strip())
"""


def _pinned_in_a_process_of_its_own(env: dict) -> str:
    """pin_worker changes the affinity of the process calling it, so never of this test's own process."""
    return subprocess.run([sys.executable, "-c", PIN_AND_SHOW], capture_output=True, text=True, check=True,
                          env=env).stdout.strip()


def test_a_pinned_worker_and_the_children_it_starts_share_its_cpu_unless_released():
    """A test's extra children (``spawn_implementation.each``) are released: side by side, they load their
    interpreters on every CPU, as under ``check``."""
    allowed = sorted(os.sched_getaffinity(0))
    if len(allowed) < 2:
        pytest.skip("one CPU: a second worker could not have one of its own")
    env = {k: v for k, v in os.environ.items() if k != cpu_pairs.OPT_OUT}
    assert _pinned_in_a_process_of_its_own(env) == f"{allowed[1]} [{allowed[1]}] [{allowed[1]}] {allowed}"


def test_bpe_kata_no_pin_leaves_the_process_where_it_was():
    allowed = sorted(os.sched_getaffinity(0))
    assert _pinned_in_a_process_of_its_own({**os.environ, cpu_pairs.OPT_OUT: "1"}) == (
        f"None {allowed} {allowed} {allowed}")
