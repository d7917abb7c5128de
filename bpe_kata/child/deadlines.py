"""The time the verdict process may spend waiting on children: the run's budget (``--time-budget``, across
every call) and the running spec test's own (armed and disarmed by bpe_kata/run/budgets.py).

Apart from the child process (bpe_kata/child/process.py, ``Child.limited`` applies both to every call) because
they are the run's and the test's, not one child's: one of each per verdict process, shared by every child.
"""

from __future__ import annotations

import time

from bpe_kata.child.faults import TooSlow


class Budget:
    """The total time this process may wait on children (``--time-budget``), across every call.

    Per verdict process: under pytest-xdist, each worker has the whole budget; the supervisor's
    wall limit bounds the run as a whole."""

    def __init__(self) -> None:
        self.total: float | None = None
        self.used = 0.0

    def remaining(self) -> float | None:
        return None if self.total is None else self.total - self.used


BUDGET = Budget()


class TestDeadline:
    """The running spec test's own budget (bpe_kata/run/budgets.py), as wall time spent here waiting on children.

    Armed at each test's setup, disarmed at its teardown; a call still running when it ends fails the test
    "too slow", and its child is killed so that nothing keeps computing behind the run."""

    def __init__(self) -> None:
        self.deadline: float | None = None
        self.seconds = 0.0
        self.how = ""

    def arm(self, seconds: float, how: str) -> None:
        self.deadline, self.seconds, self.how = time.monotonic() + seconds, seconds, how

    def disarm(self) -> None:
        self.deadline = None

    def remaining(self) -> float | None:
        return None if self.deadline is None else self.deadline - time.monotonic()

    def spent(self, what: str) -> TooSlow:
        return TooSlow(f"{what} was still running when the test's budget ran out: {self.seconds:g} s "
                       f"({self.how}); the child was stopped, a new one serves the next call")


TEST_DEADLINE = TestDeadline()


class HungCalls:
    """Calls that hung (ran past their time limit), by name, for ``--give-up-after-hangs N``: once a function has hung
    N times running, later calls to it fail at once rather than hang too. A graded submission whose ``train`` hangs
    would otherwise spend the run's whole budget on train, one test at a time, and every other level with it
    (bpe_kata/tools/grade_limits.py). Off (None) unless asked: the gate keeps calling, since a call that is too
    slow on a large input may still answer a small one."""

    def __init__(self) -> None:
        self.limit: int | None = None
        self.running: dict[str, int] = {}

    def given_up(self, what: str) -> int | None:
        """How many times running ``what`` hung, when that is enough to stop calling it; else None."""
        count = self.running.get(what, 0)
        return count if self.limit is not None and count >= self.limit else None

    def hung(self, what: str) -> None:
        self.running[what] = self.running.get(what, 0) + 1

    def answered(self, what: str) -> None:
        self.running.pop(what, None)


HUNG_CALLS = HungCalls()
