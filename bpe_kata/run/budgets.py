"""Every spec test's time budget: a slow implementation fails the slow test, it never ends the run (issue 37, kind 7).

A right but slow learner once got no verdict at all: a test ran into pytest-timeout's 600 s safety net, whose
``pytest.fail`` landed inside Hypothesis's own code (a "flaky" failure, hundreds of lines of noise, no level
table), and under ``--isolated`` the child it was waiting on went on computing. The rule here: each test has a
budget, sized from the reference's own time for that test with a wide margin (``MARGIN`` times the time recorded
in ``reference_times.json``, never less than ``FLOOR``); past it the test fails "too slow", a root cause
charged to no claim (``TooSlow``, a fault like a crash: Hypothesis neither shrinks nor replays it), the call
still running and its input named; the run goes on to its level table.

In process the budget is CPU time, counted by a profiling timer (``SIGPROF``; pytest-timeout keeps ``SIGALRM``
for its safety net): a loaded machine does not make a right implementation "too slow". When the timer fires
while the suite's own code runs (a generator, the oracle), the suite looks again a moment later and fails the
test the next time the implementation is found computing. Through the protocol (``--isolated``, ``gate``) the
budget is the wall time spent waiting on the child (bpe_kata/child/deadlines.py, ``TEST_DEADLINE``); when it runs
out the child is killed and a new one serves the next test.

``--test-budget SECONDS`` (or ``BPE_KATA_TEST_BUDGET``) gives every test the same budget; ``auto`` (the default)
sizes each from the reference, ``off`` leaves only pytest-timeout's safety net.
"""

from __future__ import annotations

import json
import os
import re
import signal
import threading
from functools import lru_cache
from pathlib import Path
from types import FrameType

import pytest

from bpe_kata.child import call_text, deadlines
from bpe_kata.child.client import IsolatedImplementation
from bpe_kata.child.faults import TooSlow
from bpe_kata.impl import frames

ENV_VAR = "BPE_KATA_TEST_BUDGET"
REFERENCE_TIMES = Path(__file__).with_name("reference_times.json")
#: A test's budget is this many times the reference's time for it ...
MARGIN = 50.0
#: ... and never less than this (seconds): a textbook implementation is slower than the reference by far.
FLOOR = 60.0
#: The budget of a test the reference's table does not know (a new test, before the table is recorded again).
UNKNOWN = 120.0
#: No automatic budget reaches pytest-timeout's safety net (600 s, bpe_kata/run/spec_command.py).
CEILING = 480.0
#: When the budget runs out while the suite's own code runs, look again after this much CPU time.
RECHECK = 0.25
AUTO = "auto"
_PARAMETERS = re.compile(r"[\[@].*$")  # parameters, and pytest-xdist's "@group"


def setting(value: str | None) -> float | str | None:
    """``--test-budget``'s value (else the environment's, else ``auto``): seconds, ``AUTO``, or None for off."""
    text = (value if value is not None else os.environ.get(ENV_VAR, AUTO)).strip().lower()
    if text == AUTO:
        return AUTO
    if text in ("off", "none", "0"):
        return None
    try:
        seconds = float(text)
    except ValueError:
        seconds = -1.0
    if not seconds > 0 or seconds == float("inf"):
        raise ValueError(f"--test-budget: {text!r} is not a number of seconds, 'auto' or 'off'; "
                         "give e.g. --test-budget 120 (or set BPE_KATA_TEST_BUDGET)")
    return seconds


@lru_cache(maxsize=1)
def reference_times() -> dict[str, float]:
    """``test_file.py::test_name`` -> the reference's seconds for it (the slowest of its parameters)."""
    try:
        return {str(k): float(v) for k, v in json.loads(REFERENCE_TIMES.read_text(encoding="utf-8")).items()}
    except (OSError, ValueError):
        return {}


def key_of(nodeid: str) -> str:
    """A test's key in the reference's table: its file's name and its function, parameters left out."""
    path, _, name = nodeid.partition("::")
    return f"{Path(path).name}::{_PARAMETERS.sub('', name)}"


def budget_of(nodeid: str, chosen: float | str | None) -> tuple[float | None, str]:
    """The budget of one test, in seconds (None: no budget), and how it was chosen (for the failure's message)."""
    if chosen is None or isinstance(chosen, float):
        return chosen, "--test-budget"
    reference = reference_times().get(key_of(nodeid))
    if reference is None:
        return UNKNOWN, "the budget of a test with no recorded reference time; --test-budget changes it"
    seconds = min(max(FLOOR, MARGIN * reference), CEILING)
    return seconds, (f"{MARGIN:g} x the reference's {reference:g} s, at least {FLOOR:g} s; "
                     "--test-budget changes it")


class TestBudgets:
    """The plugin that arms each test's budget from its setup to the end of its call."""

    NAME = "bpe-kata-budgets"

    def __init__(self, chosen: float | str | None, implementation: object) -> None:
        self.chosen = chosen
        self.root = frames.implementation_root(implementation)
        self.in_process = not isinstance(implementation, IsolatedImplementation)  # a stand-in waits on its child
        self.seconds: float | None = None
        self.how = ""

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_setup(self, item: pytest.Item) -> None:
        self.seconds, self.how = budget_of(item.nodeid, self.chosen)
        if self.seconds is None:
            return
        deadlines.TEST_DEADLINE.arm(self.seconds, self.how)
        if self.in_process and threading.current_thread() is threading.main_thread() and hasattr(signal, "SIGPROF"):
            signal.signal(signal.SIGPROF, self._expired)
            signal.setitimer(signal.ITIMER_PROF, self.seconds)

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_teardown(self, item: pytest.Item) -> None:
        self.disarm()

    def disarm(self) -> None:
        deadlines.TEST_DEADLINE.disarm()
        if self.in_process and threading.current_thread() is threading.main_thread() and hasattr(signal, "SIGPROF"):
            signal.setitimer(signal.ITIMER_PROF, 0)

    def _expired(self, signum: int, frame: FrameType | None) -> None:
        """The CPU budget ran out: fail the test if the implementation is computing, else look again soon."""
        entry = self._entry(frame)
        if entry is None and self.root is not None:
            signal.setitimer(signal.ITIMER_PROF, RECHECK)
            return
        # Armed again while the implementation's code can run: code that swallows the error (a logging handler's
        # handleError, a bare ``except``) and goes on computing meets it again (seventh round: a member's logging
        # lock swallowed it, and the test ran on to the wall-clock net). With no known root, once: it could fire
        # in the suite's own code.
        signal.setitimer(signal.ITIMER_PROF, RECHECK if self.root is not None else 0)
        running = call_text.shown_call(entry.f_code.co_name, _arguments(entry)) if entry is not None else \
            "the implementation"
        raise TooSlow(f"{running} was still running when the test's budget ran out: {self.seconds:g} s of CPU time "
                      f"({self.how})")

    def _entry(self, frame: FrameType | None) -> FrameType | None:
        """The outermost frame of the implementation's own code on the interrupted stack (the call the suite made)."""
        entry = None
        while frame is not None:
            if self.root is not None and frames.is_under(frame, self.root):
                entry = frame
            frame = frame.f_back
        return entry


def _arguments(frame: FrameType) -> dict[str, object]:
    """A frame's parameters and their values (as they are now: the call's input, unless the code rebound them)."""
    code = frame.f_code
    count = code.co_argcount + code.co_kwonlyargcount
    count += bool(code.co_flags & 0x04) + bool(code.co_flags & 0x08)  # *args, **kwargs
    local = frame.f_locals
    return {name: local[name] for name in code.co_varnames[:count] if name in local}
