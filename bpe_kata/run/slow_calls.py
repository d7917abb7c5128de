"""A right but slow learner gets a complete verdict: fewer examples per property when every call is slow.

Each test's budget (bpe_kata/run/budgets.py) catches a slow call, not a slow process: code that starts a pool of 32
processes in every train call spends a third of a second there however small the text, mostly in its children, where
the CPU-time budget does not look. Each test stays within its budget and the run takes 25 minutes and more (eighth
round, development: a CS336 solution stopped by its 1,500 s limit with no verdict, twice). Before the tests, the
process that runs them (or the controller of pytest-xdist's workers, which hands its finding down) times the
plainest calls, ``train('ab', 257)`` with no special and with ``<|endoftext|>``, and ``encode('ab', {(97, 98): 256})``;
when the slowest takes more than ``SLOW``
seconds of wall time, each property draws fewer examples, never fewer than ``MINIMUM``, and the run says so at its
start and under its level table. A profile the user chose (``--hypothesis-profile``, ``$HYPOTHESIS_PROFILE``) is
kept, as are isolated runs (the gate has its own time budget).
"""

from __future__ import annotations

import contextlib
import io
import os
import signal
import sys
import threading
import time

import pytest

#: The controller's finding, handed to pytest-xdist's workers: "drawn usual seconds".
ENV_VAR = "BPE_KATA_SLOW_CALLS"
#: Seconds of wall time for the plainest call above which examples are cut (the reference takes about 0.1 ms).
SLOW = 0.05
#: Never fewer examples per property than this.
MINIMUM = 5
#: A plainest call still running after this many seconds counts as that slow.
PATIENCE = 5.0
PROFILE = "bpe-kata-slow-calls"


class SlowCalls:
    """Registered per run (bpe_kata/plugin.py): decides the cut before the workers start, applies it per process."""

    NAME = "bpe-kata-slow-calls"

    def __init__(self, config: pytest.Config, implementation: object, isolated: bool) -> None:
        self.cut: tuple[int, int, float] | None = None  # (examples drawn, usual examples, seconds of the slower call)
        if hasattr(config, "workerinput"):  # a worker: the controller decided
            self.cut = _parse(os.environ.get(ENV_VAR, ""))
            return
        if not isolated and not _profile_chosen(config):
            self.cut = decide(implementation)
        os.environ[ENV_VAR] = " ".join(map(str, self.cut)) if self.cut else ""  # never a stale one for the workers

    @pytest.hookimpl(trylast=True)
    def pytest_sessionstart(self, session: pytest.Session) -> None:
        """After Hypothesis's own configure loaded the profile: the same profile, fewer examples."""
        if self.cut is None:
            return
        from hypothesis import settings

        settings.register_profile(PROFILE, parent=settings.default, max_examples=self.cut[0])
        settings.load_profile(PROFILE)
        if not hasattr(session.config, "workerinput"):
            print(f"bpe-kata: {self.line()}", file=sys.stderr)

    @pytest.hookimpl(trylast=True)
    def pytest_terminal_summary(self, terminalreporter) -> None:
        if self.cut is not None and not hasattr(terminalreporter.config, "workerinput"):
            terminalreporter.write_line(self.line())

    def line(self) -> str:
        drawn, usual, seconds = self.cut
        return (f"slow calls: the plainest call took {seconds:.2f} s (the reference: about 0.1 ms), so each property "
                f"drew {drawn} examples, not {usual}, for the run to end in minutes; --hypothesis-profile default "
                f"draws them all")


def decide(implementation: object, usual: int | None = None) -> tuple[int, int, float] | None:
    """(examples to draw, the usual count, the slower plainest call's seconds), or None: no cut."""
    if usual is None:
        from hypothesis import settings

        usual = settings.default.max_examples
    seconds = plainest_call_seconds(implementation)
    if seconds is None or seconds <= SLOW:
        return None
    drawn = max(MINIMUM, min(usual, round(usual * SLOW / seconds)))
    return (drawn, usual, round(seconds, 3)) if drawn < usual else None


def plainest_call_seconds(implementation: object) -> float | None:
    """The wall seconds of the slowest plainest call, each the faster of two tries (a first call may import or
    compile), whether it returned or raised. Training is timed with no special and with one: a trainer that raises at
    once on one of them is no faster on the other (eleventh round: a CS336 trainer asserting it was given specials
    was timed by that assertion, then spent 2 s a call in its pool on every test that gave one, and hit the run's
    1,500 s limit). None when nothing can be timed safely
    here: not the main thread, no SIGALRM (Windows), or a wall-clock timer already running (a run nested in another,
    whose pytest-timeout alarm must not be touched)."""
    if (threading.current_thread() is not threading.main_thread() or not hasattr(signal, "SIGALRM")
            or signal.getitimer(signal.ITIMER_REAL)[0] > 0):
        return None
    calls = (lambda: implementation.train("ab", 257),
             lambda: implementation.train("ab", 257, special_tokens=["<|endoftext|>"]),
             lambda: implementation.encode("ab", {(97, 98): 256}))
    found = []
    for call in calls:
        tries = [took for took in (_timed(call), _timed(call)) if took is not None]
        if tries:
            found.append(min(tries))
    return max(found) if found else None


class _OutOfPatience(BaseException):
    """Not an Exception: code under test that catches every Exception does not swallow it."""


def _timed(call) -> float | None:
    """Seconds of wall time, ``PATIENCE`` for a call still running then. A call that raised counts too: the time it
    spent before raising is every such call's (ninth round: a trainer whose split left 'ab' no pair raised after its
    pool of processes had started, a tenth of a second a call, and was not cut). The alarm repeats, so a call that
    swallows it once is stopped at the next. Its output is not the run's."""
    def give_up(signum, frame):
        raise _OutOfPatience

    previous = signal.signal(signal.SIGALRM, give_up)
    signal.setitimer(signal.ITIMER_REAL, PATIENCE, 0.1)
    start = time.perf_counter()
    try:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            call()
    except _OutOfPatience:
        return PATIENCE
    except Exception:  # noqa: BLE001 - the tests will meet it, under their claims; its time is spent all the same
        pass
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    return min(time.perf_counter() - start, PATIENCE)


def _profile_chosen(config: pytest.Config) -> bool:
    try:
        chosen = config.getoption("--hypothesis-profile")
    except ValueError:
        chosen = None
    return bool(chosen or os.environ.get("HYPOTHESIS_PROFILE"))


def _parse(text: str) -> tuple[int, int, float] | None:
    try:
        drawn, usual, seconds = text.split()
        return int(drawn), int(usual), float(seconds)
    except ValueError:
        return None
