"""The time limits of each graded run, innermost first, so that a hang costs one test and never the row.

A hanging submission once lost every result: its first hung call waited out the child's 60 s call limit, test
after test, until the submission's wall limit (300 s) killed the run before it wrote its report ("·" on all
16 levels). Each graded run now gets, unless the teacher's options after ``--`` set them:

- ``--call-timeout`` (``CALL_TIMEOUT``, or ``CALL_SHARE`` of the wall limit when that is less): a call past it
  fails its test "timed out", the child is restarted and the run goes on; the report names the call
  ("hung in train");
- ``--give-up-after-hangs``: a function that hung ``GIVE_UP_AFTER`` times running is not called again, its
  later tests fail at once, and the other functions' levels are judged as usual;
- ``--time-budget``, ``BUDGET_SHARE`` of the wall limit: once the calls have spent it, every later call fails at
  once, so the run reaches its level table and report before the wall limit;
- the wall limit (``grade --timeout``), the last resort: the supervisor interrupts the run (pytest writes the
  report of what finished) and kills it only if it does not end within its grace
  (bpe_kata/gate/supervisor.py).
"""

from __future__ import annotations

import os
import signal
from pathlib import Path

#: Seconds one call may take in a graded run, at most: the child's own default, which a textbook learner's
#: slowest call needs (the full recount per merge takes over 10 s to train on tinyshakespeare) ...
CALL_TIMEOUT = 60.0
#: ... and at most this share of the wall limit, so that two hung calls leave time for every other level.
CALL_SHARE = 0.2
#: A function whose calls hung this many times running is not called again in that run (each later call fails
#: at once): a hanging ``train`` costs two calls' time, not the budget of every level (bpe_kata/child/deadlines.py).
GIVE_UP_AFTER = 2
#: The share of the wall limit all of a run's calls may take together.
BUDGET_SHARE = 0.7


def given(argv: list[str], name: str) -> bool:
    return any(arg == name or arg.startswith(name + "=") for arg in argv)


def limits(extra: list[str], wall: float, call_timeout: float | None = None) -> list[str]:
    """``extra`` (the options every graded run gets) with the per-call limit and the run's budget added, unless
    it sets them already."""
    added = []
    if not given(extra, "--call-timeout"):
        added += ["--call-timeout", f"{call_timeout or min(CALL_TIMEOUT, CALL_SHARE * wall):g}"]
    if not given(extra, "--give-up-after-hangs"):
        added += ["--give-up-after-hangs", str(GIVE_UP_AFTER)]
    if not given(extra, "--time-budget"):
        added += ["--time-budget", f"{BUDGET_SHARE * wall:g}"]
    return [*added, *extra]


def descendants(pid: int) -> list[int]:
    """Every process below ``pid`` (Linux's /proc; elsewhere none), children before grandchildren."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = entry.read_text(encoding="ascii", errors="replace").rpartition(")")[2].split()
            parents[int(entry.parent.name)] = int(fields[1])
        except (OSError, ValueError, IndexError):
            continue
    found, frontier = [], [pid]
    while frontier:
        below = [child for child, parent in parents.items() if parent in frontier]
        found += below
        frontier = below
    return found


def kill_tree(pid: int) -> None:
    """Kill ``pid``, its process group and every process below it.

    The run's own children may start sessions of their own (the spec's implementation server
    does, bpe_kata/child/client.py), which the group kill does not reach: left alone they would
    outlive the grade, a hanging submission sleeping on for an hour."""
    below = descendants(pid)
    for target in below:
        try:
            os.kill(target, signal.SIGKILL)
        except OSError:
            pass
    try:
        os.killpg(pid, signal.SIGKILL)
    except OSError:
        pass
