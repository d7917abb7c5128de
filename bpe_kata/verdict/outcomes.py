"""How a spec test ended, and what that makes of its claims and its level: one vocabulary for
the level table, the JSON and JUnit reports, the run's verdict, expectations, grade and matrix.

The outcome is decided where the run learns it (a level's probe, a missing corpus, a
NotImplementedError) and travels on the test's deciding report as the user property
``bpe_outcome`` (a plain string, so pytest-xdist carries it from its workers), and on its
later reports too: JUnit XML writes a test's properties from its teardown report. The skip
message stays what a person reads; nothing parses it for the outcome.
"""

from __future__ import annotations

from enum import StrEnum
from typing import NoReturn

import pytest

#: The user property that carries a test's outcome on its deciding report.
PROPERTY = "bpe_outcome"


class Outcome(StrEnum):
    """The outcome of one spec test, from the phase that decides it."""

    PASSED = "passed"
    FAILED = "failed"
    #: its level is not started: a function or keyword missing, or still raising NotImplementedError
    NOT_STARTED = "not started"
    #: its level is started but one optional feature of it is not (a tie rule): counted as not started
    FEATURE_NOT_STARTED = "feature not started"
    #: skipped for a reason outside the implementation: a corpus or published table unavailable, ...
    NOT_RUN = "not run"

    @property
    def column(self) -> Outcome:
        """The level-table column (and claim tally) this outcome counts in."""
        return Outcome.NOT_STARTED if self is Outcome.FEATURE_NOT_STARTED else self

    @property
    def not_started(self) -> bool:
        return self.column is Outcome.NOT_STARTED


#: The level table's columns, in order.
COLUMNS: tuple[Outcome, ...] = (Outcome.PASSED, Outcome.FAILED, Outcome.NOT_STARTED, Outcome.NOT_RUN)


class ClaimOutcome(StrEnum):
    """Per claim only: what a failed test means for the claims it names."""

    #: the test failed on another of its claims
    NOT_CHECKED = "not checked"
    #: the test stopped at an error before the spec could check (bpe_kata/verdict/judging.py)
    COULD_NOT_RUN = "could not run"
    #: a claim's status only, never a test's: a check about it failed, but it rests on a claim broken in the
    #: same run (the ledger's ``rests_on``), so the failure may be that claim's; not blamed here
    NOT_JUDGED = "not judged"


#: The lists a claim's tests are sorted into (the JSON report's ``claims.*.tests``).
CLAIM_OUTCOMES: tuple[str, ...] = (*COLUMNS, ClaimOutcome.NOT_CHECKED, ClaimOutcome.COULD_NOT_RUN)


class LevelStatus(StrEnum):
    """A level's row in the table, from its counts (bpe_kata.verdict.tallies.level_status)."""

    GREEN = "green"
    FAILED = "FAILED"
    PARTLY_STARTED = "partly started"  # some optional features written, others not (tie rules)
    NOT_STARTED = "not started"
    PARTLY_RUN = "partly run"
    NOT_RUN = "not run"


#: Level statuses that ask the learner to go on (neither green nor failed).
TO_DO: frozenset[LevelStatus] = frozenset(LevelStatus) - {LevelStatus.GREEN, LevelStatus.FAILED}

_DECIDED = pytest.StashKey[Outcome]()


def skip(item: pytest.Item, outcome: Outcome, reason: str) -> NoReturn:
    """Skip the running test with ``reason`` as its message and ``outcome`` as its outcome."""
    item.stash[_DECIDED] = outcome
    pytest.skip(reason)


def decide(item: pytest.Item, rep: pytest.TestReport, not_implemented: bool) -> Outcome | None:
    """The outcome a phase's report gives its test, or None for a phase that decides nothing
    (a passing setup or teardown). A skip nobody labelled is "not run"; ``not_implemented``:
    the phase raised NotImplementedError, reported as a skip."""
    if rep.failed:
        return Outcome.FAILED
    if rep.skipped:
        return Outcome.NOT_STARTED if not_implemented else item.stash.get(_DECIDED, Outcome.NOT_RUN)
    if rep.passed and rep.when == "call":
        return Outcome.PASSED
    return None


def label(item: pytest.Item, rep: pytest.TestReport, outcome: Outcome) -> None:
    """Carry ``outcome`` on this report and on the test's later ones (one value each: the last decided)."""
    for properties in (rep.user_properties, item.user_properties):
        properties[:] = [(name, value) for name, value in properties if name != PROPERTY]
        properties.append((PROPERTY, str(outcome)))


def of_report(rep: pytest.TestReport) -> Outcome | None:
    """The outcome this report decides (set by the plugin's ``pytest_runtest_makereport``), if it decides one:
    a passing setup or teardown only repeats what an earlier phase decided."""
    value = dict(rep.user_properties).get(PROPERTY)
    deciding = rep.failed or rep.skipped or rep.when == "call"
    return Outcome(value) if value is not None and deciding else None
