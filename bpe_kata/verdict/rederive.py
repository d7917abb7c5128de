"""A gate report's verdict, derived again from its own records with the code the gate used.

``bpe-kata verify-report`` hands a report here. Each test's record (level, own claims, outcome) and
the run's inputs (pytest's status, the strictness options, missing data, failures outside the spec)
are what the verdict process decided the verdict from; ``problems`` runs the same functions on them
(``Results.per_level`` and ``level_status`` for the level table, ``run_status.judge`` with the
expectations file for the expected and unexpected failures, ``run_status.exit_status`` and the
supervisor's ``run_status.supervised`` for completeness and the exit status) and lists every field
that does not follow. An edited ``complete``, ``exit_status``, level status, test outcome or
expectations list is refused this way. A report fabricated whole and consistent is not: that needs
the report's attested digest, or running the gate again (docs/GATE.md).
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from bpe_kata.verdict import expectations, run_status
from bpe_kata.verdict.outcomes import COLUMNS, Outcome
from bpe_kata.verdict.tallies import Results, level_status


class Unreadable(ValueError):
    """The report lacks the records a verdict is derived from."""


def _by_test(data: dict) -> dict:
    tests = data.get("tests")
    if not isinstance(tests, dict):
        raise Unreadable("no per-test records ('tests'): not a report of this bpe-kata version, or cut")
    try:
        return {nodeid: (record["level"], tuple(record["claims"]), Outcome(record["outcome"]))
                for nodeid, record in tests.items()}
    except (KeyError, TypeError, ValueError) as error:
        raise Unreadable(f"a per-test record is malformed: {error}") from None


def entries_for(data: dict, expect: str | None) -> list[expectations.Expected] | None:
    """The expectations the run judged with: the file it used (``expect``, checked against the sha256 the
    supervisor recorded), none when strict levels alone judged it, None when nothing was judged."""
    recorded = (data.get("sandbox") or {}).get("expect")
    inputs = data.get("verdict_inputs") or {}
    if recorded and expect is None:
        raise Unreadable(f"the run used the expectations file {recorded.get('file')} "
                         f"(sha256 {recorded.get('sha256')}); pass it with --expect FILE")
    if expect is not None:
        digest = hashlib.sha256(Path(expect).read_bytes()).hexdigest()
        if not recorded:
            raise Unreadable(f"--expect {expect}: the run used no expectations file")
        if digest != recorded.get("sha256"):
            raise Unreadable(f"--expect {expect}: not the file the run used (sha256 {digest}, "
                             f"the run's {recorded.get('sha256')})")
        return expectations.load(expect)
    return [] if inputs.get("expectations") else None


def problems(data: dict, expect: str | None = None) -> list[str]:
    """Every field of the report that does not follow from its records (empty: the verdict is consistent)."""
    try:
        by_test = _by_test(data)
        entries = entries_for(data, expect)
    except (Unreadable, expectations.ExpectationsError, OSError) as error:
        return [str(error)]
    inputs = data.get("verdict_inputs")
    if not isinstance(inputs, dict):
        return ["no verdict inputs ('verdict_inputs'): not a report of this bpe-kata version"]
    found: list[str] = []
    results = Results(by_test=by_test)
    levels = {level: {**{str(c): counts[c] for c in COLUMNS}, "status": str(level_status(counts))}
              for level, counts in results.per_level().items()}
    shown = {level: {key: row.get(key) for key in (*map(str, COLUMNS), "status")}
             for level, row in (data.get("levels") or {}).items()}
    if shown != levels:
        wrong = sorted(set(shown) ^ set(levels) | {lv for lv in set(shown) & set(levels) if shown[lv] != levels[lv]})
        found.append(f"the level table does not follow from the tests' records (levels {', '.join(wrong)})")
    failed = {nodeid for nodeid, (_, _, outcome) in by_test.items() if outcome is Outcome.FAILED}
    if set(data.get("failures") or {}) != failed:
        found.append("the failures listed are not the tests recorded as failed")
    judgement = (run_status.judge(by_test, entries, bool(inputs.get("strict_levels")))
                 if entries is not None else None)
    if not _same_judgement(judgement, data.get("expectations")):
        found.append("the expected and unexpected failures do not follow from the tests and the expectations")
    selected, finished = data.get("selected"), data.get("finished")
    status = inputs.get("pytest_status")
    if not all(isinstance(v, int) for v in (selected, finished, status)) or len(by_test) > selected:
        return [*found, "the counts of selected and finished tests are missing or do not fit the records"]
    complete = status not in (run_status.INTERRUPTED, run_status.INTERNAL_ERROR) and finished == selected
    tracker = run_status.Tracker(missing_data=set(inputs.get("missing_data") or ()),
                                 outside_failures=set(inputs.get("outside_failures") or ()),
                                 suite_errors=set(inputs.get("suite_errors") or ()))
    exit_status = run_status.exit_status(status, complete, judgement, tracker, bool(inputs.get("strict_expect")),
                                         bool(inputs.get("require_data")))
    failure = (data.get("sandbox") or {}).get("failure")
    exit_status, complete = run_status.supervised(exit_status, complete, failure)
    if data.get("complete") is not complete:
        found.append(f"complete is {data.get('complete')}, but the records make it {complete}")
    if data.get("exit_status") != exit_status:
        found.append(f"exit_status is {data.get('exit_status')}, but the records make it {exit_status}")
    return found


def _same_judgement(judgement: run_status.Judgement | None, shown) -> bool:
    if judgement is None:
        return shown is None
    if not isinstance(shown, dict):
        return False
    return (shown.get("unexpected_failures") == {n: str(o) for n, o in judgement.unexpected.items()}
            and shown.get("expected_failures") == judgement.expected
            and shown.get("unexpected_passes") == judgement.unexpected_passes)
