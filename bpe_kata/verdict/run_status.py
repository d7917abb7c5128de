"""The run's verdict, decided only in the main process: was every selected test seen to
finish, which failures were expected, and the exit status that follows.

pytest-xdist workers report to the controller; the controller alone writes the JSON report
and decides the status. A run that stops early (a worker lost, an interrupted session) is
marked incomplete and never exits 0.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field

from bpe_kata.layout.paths import SPEC_DIR
from bpe_kata.verdict import expectations, missing_data
from bpe_kata.verdict.outcomes import Outcome

INTERRUPTED, INTERNAL_ERROR = 2, 3
#: The suite's own code raised in a spec test (bpe_kata/verdict/judging.py ``SUITE``): no verdict on those tests, and
#: the status says it is the suite's fault, not the implementation's (pytest's own statuses end at 5).
SUITE_ERROR = 6


def spec_fingerprint() -> str:
    """SHA-256 over the ledger and the case files: which spec judged the run."""
    digest = hashlib.sha256()
    for path in [SPEC_DIR / "claims.toml", *sorted((SPEC_DIR / "cases").glob("*.json"))]:
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def is_worker(config) -> bool:
    return hasattr(config, "workerinput")


@dataclass
class Tracker:
    """What the main process saw: the tests selected, those that finished, faults, other failures."""

    selected: set[str] = field(default_factory=set)
    finished: set[str] = field(default_factory=set)
    faults: dict[str, str] = field(default_factory=dict)  # nodeid -> "timed out", "crashed", ...
    outside_failures: set[str] = field(default_factory=set)  # failed tests that are not spec tests
    missing_data: set[str] = field(default_factory=set)  # the lines of data some test found missing
    suite_errors: set[str] = field(default_factory=set)  # spec tests where the suite's own code raised

    def observe(self, report, is_spec_test: bool) -> None:
        if report.when == "teardown" or (report.failed and report.when not in ("setup", "call")):
            self.finished.add(report.nodeid)
        fault = dict(report.user_properties).get("bpe_fault")
        if fault and report.failed:
            self.faults[report.nodeid] = fault
        if report.failed and not is_spec_test:
            self.outside_failures.add(report.nodeid)
        verdict = dict(report.user_properties).get("bpe_verdict")
        if report.failed and verdict and json.loads(verdict).get("kind") == "suite":
            self.suite_errors.add(report.nodeid)
        if missing_data.line_of(report):
            self.missing_data.add(missing_data.line_of(report))

    def complete(self, exitstatus: int) -> bool:
        return exitstatus not in (INTERRUPTED, INTERNAL_ERROR) and self.selected <= self.finished


@dataclass
class Judgement:
    """Failures and not-started tests sorted into expected and unexpected, and stale entries."""

    unexpected: dict[str, Outcome] = field(default_factory=dict)  # nodeid -> outcome (its table column)
    expected: dict[str, str] = field(default_factory=dict)  # nodeid -> the entry's reason
    unexpected_passes: list[str] = field(default_factory=list)  # entry labels


def judge(by_test: dict, entries: list[expectations.Expected], strict_levels: bool) -> Judgement:
    """``by_test``: nodeid -> (level, claims, outcome), as bpe_kata.verdict.tallies.Results keeps it."""
    judgement = Judgement()
    for nodeid, (level, claims, outcome) in by_test.items():
        if not counted(outcome, level, strict_levels):
            continue
        entry = expectations.excusing(entries, nodeid, level, claims)  # claims: the test's own
        if entry is None:
            judgement.unexpected[nodeid] = outcome.column
        else:
            judgement.expected[nodeid] = entry.reason
    for entry in entries:
        outcomes = [o.column for n, (lv, cl, o) in by_test.items() if entry.matches(n, lv, cl)]
        if Outcome.PASSED in outcomes and not any(o in (Outcome.FAILED, Outcome.NOT_STARTED) for o in outcomes):
            judgement.unexpected_passes.append(entry.label())
    return judgement


def exit_status(pytest_status: int, complete: bool, judgement: Judgement | None, tracker: Tracker,
                strict_expect: bool, require_data: bool = False) -> int:
    """0 only for a complete run with nothing unexpected; pytest's own errors (usage, internal) stay.
    A run that requires data some test found missing has no verdict: a set-up error. A run where the suite's
    own code raised exits ``SUITE_ERROR``, whatever the expectations: the suite, not the implementation, failed."""
    if pytest_status not in (0, 1):
        return pytest_status
    if not complete:
        return 1
    if require_data and tracker.missing_data:
        return missing_data.SETUP_ERROR
    if tracker.suite_errors:
        return SUITE_ERROR
    if judgement is None:  # no expectations and no strict levels: pytest's word
        return pytest_status
    failed = judgement.unexpected or tracker.outside_failures or (strict_expect and judgement.unexpected_passes)
    return 1 if failed else 0


def verdict_lines(tracker: Tracker, judgement, complete: bool) -> list[str]:
    """Printed after the level table: completeness, faults, and the expectations' outcome."""
    lines = [""] if complete else [f"bpe-kata: INCOMPLETE run: {len(tracker.finished & tracker.selected)} of "
                                 f"{len(tracker.selected)} selected tests were seen to finish"]
    for nodeid, outcome in sorted(tracker.faults.items()):
        lines.append(f"bpe-kata: {outcome}: {nodeid}")
    if judgement is not None:
        lines.append(f"bpe-kata: {len(judgement.unexpected)} unexpected failures, "
                     f"{len(judgement.expected)} expected, {len(judgement.unexpected_passes)} unexpected passes")
        lines += [f"  unexpected {outcome}: {nodeid}" for nodeid, outcome in list(judgement.unexpected.items())[:20]]
        lines += [f"  unexpected pass (remove it from --expect): {label}" for label in judgement.unexpected_passes]
    return lines if any(lines) else []


def supervised(status: int, complete: bool, failure: str | None) -> tuple[int, bool]:
    """The supervisor's last word on a verdict process's (exit status, complete): a run it failed (wall limit,
    suite changed, verdict process killed) exits 1, and one the wall limit stopped is incomplete. A status
    other than 0 and 1 (a usage or set-up error) is kept, at least 1."""
    if failure:
        return 1, complete and "wall limit" not in failure
    return (status if status in (0, 1) else max(status, 1)), complete


#: The longest cause ``--write-expect`` writes (a reason is one line a reader takes in at a glance).
CAUSE_WIDTH = 120

#: Lines of pytest's assertion explanation that restate the expression ("assert x == y", "+  where ...").
_ASSERTION_NOISE = ("assert ", "+", "where ", "and ", "At index", "Full diff", "Use -v", "...")


def one_line_cause(failure: str) -> str:
    """The failure's first line that says what differs, not how pytest rewrote the assertion; shortened."""
    lines = [line.strip() for line in failure.splitlines() if line.strip()]
    said = [line for line in lines if not line.startswith(_ASSERTION_NOISE)]
    cause = (said or lines or ["failing"])[0]
    return cause if len(cause) <= CAUSE_WIDTH else cause[:CAUSE_WIDTH - 1] + "…"


def counted(outcome: Outcome, level: str | None, strict_levels: bool = True) -> bool:
    """The test fails the gate unless an entry excuses it: it failed, or (strict levels) it is not started."""
    return outcome is Outcome.FAILED or (strict_levels and outcome.not_started and level != "facts")


def starting_entries(by_test: dict, failures: dict[str, str]) -> list[expectations.Expected]:
    """``--write-expect``: exactly what failed or was not started, so that any test that passed stays a
    test that must pass. A level entry only for a level every test of which is not started; a claim entry only for
    a claim every test of which failed (or was not started); any other such test by its own id."""
    by_level: dict[str, list[str]] = {}
    by_claim: dict[str, list[str]] = {}
    for nodeid, (level, claims, _) in by_test.items():
        if level:
            by_level.setdefault(level, []).append(nodeid)
        for claim in claims:
            by_claim.setdefault(claim, []).append(nodeid)
    bad = {nodeid for nodeid, (level, _, outcome) in by_test.items() if counted(outcome, level)}
    whole_levels = {level for level, ids in by_level.items()
                    if level != "facts" and all(by_test[n][2].not_started for n in ids)}
    whole_claims = {claim for claim, ids in by_claim.items() if set(ids) <= bad}
    entries: dict[tuple[str, str], str] = {}
    for nodeid, (level, claims, outcome) in sorted(by_test.items()):
        if nodeid not in bad:
            continue
        if level in whole_levels:
            entries.setdefault(("level", level), "not started when this file was written")
            continue
        why = ("not started when this file was written" if outcome.not_started else
               f"failing when this file was written: {one_line_cause(failures.get(nodeid, ''))}")
        claim_keys = [("claim", c) for c in claims if c in whole_claims]
        for key in claim_keys or [("test", nodeid)]:
            entries.setdefault(key, f"{key[1]} broken when this file was written: {why.split(': ', 1)[-1]}"
                               if key[0] == "claim" and outcome is Outcome.FAILED else why)
    return [expectations.Expected(key, value, reason) for (key, value), reason in entries.items()]
