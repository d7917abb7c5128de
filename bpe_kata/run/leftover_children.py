"""Processes the implementation starts in a test and leaves running are ended when the test ends.

Code written for a course starts a pool of processes or a ``Manager`` per training call; when the call raises (a
worker's error, the suite's time budget), a ``with Pool()`` block still ends its workers, but a ``Manager`` server
or a pool never closed stays, blocked on a queue nobody will fill. One is harmless when a learner trains once; the
spec calls train hundreds of times (eleventh round: 646 such processes, 16 GB, until the kernel killed the run's
workers and the suite's own test run beside it). So each test's ``multiprocessing`` children still alive when it
ends are ended then: a learner's call owns what it starts. A pool's workers are left to their pool: it ends them when
closed or freed, and replaces any ended from outside (a module-level pool kept across calls stays usable).
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Iterator
from contextlib import contextmanager

#: How long a child is given to end on SIGTERM before it is killed.
GRACE_SECONDS = 1.0


@contextmanager
def ended_after() -> Iterator[None]:
    """Inside, the ``multiprocessing`` children started and still alive at the end are ended (the ones alive before
    are the run's own, or a previous test's already handled)."""
    before = {child.pid for child in multiprocessing.active_children()}
    try:
        yield
    finally:
        _end([child for child in multiprocessing.active_children() if child.pid not in before])


def end_all() -> None:
    """The run is over (its tests and its probes): every ``multiprocessing`` child still alive but a pool's worker is
    ended, as each test's are (a probe after the last test calls train outside any test)."""
    _end(multiprocessing.active_children())


def _end(children: list) -> None:
    left = [child for child in children if "PoolWorker" not in child.name]
    for child in left:
        child.terminate()
    for child in left:
        child.join(GRACE_SECONDS)
        if child.is_alive():
            child.kill()
            child.join(GRACE_SECONDS)
