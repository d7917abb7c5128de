"""The run's JSON report (``--bpe-report``): the same results as the terminal shows, for tools and the HTML
page (bpe_kata/verdict/html_report.py), with the record of the verdict and what it was derived from, written
so a report is either complete or absent."""

from __future__ import annotations

import json
import platform
from pathlib import Path
from typing import TYPE_CHECKING

import spec
from bpe_kata.verdict import atomic_file, pattern_probe, run_status, selection, teaching
from bpe_kata.verdict.causes import resting_reason
from bpe_kata.verdict.outcomes import ClaimOutcome, Outcome
from bpe_kata.verdict.tallies import Results, level_status
from spec.ledger import document_keys_in, load_claims

if TYPE_CHECKING:
    import pytest


def run_info(impl_value: str, module) -> dict:
    return {
        "suite": "bpe-kata",
        "suite_version": spec.__version__,
        "implementation": impl_value,
        "module": getattr(module, "__name__", "?"),
        "module_file": getattr(module, "__file__", None),
        "python": platform.python_version(),
    }


def pytest_setup(config: pytest.Config) -> dict:
    """What pytest judged with: its rootdir, its config file and the plugins it loaded (by name; those installed
    packages brought in, apart), so that check, gate and grade runs can be compared (bpe_kata/run/spec_command.py)."""
    names = {name for name, plugin in config.pluginmanager.list_name_plugin() if plugin is not None
             and not name.isdigit() and not name.startswith("<")}
    installed = {getattr(dist, "project_name", None) or dist.metadata["name"]
                 for _, dist in config.pluginmanager.list_plugin_distinfo()}
    return {"rootdir": str(config.rootpath), "config": None if config.inipath is None else str(config.inipath),
            "plugins": sorted(names), "installed_plugins": sorted(installed)}


def run_record(config: pytest.Config, tracker: run_status.Tracker, results: Results, implementation, judgement,
               complete: bool, status: int, pytest_status: int) -> dict:
    """The verdict and everything it was derived from: each test's record (its level, OWN claims and
    outcome) and the run's inputs, so that ``bpe-kata verify-report`` derives it again with the same
    code (bpe_kata/verdict/rederive.py) and refuses a report whose verdict does not follow from its records."""
    command = getattr(getattr(implementation, "child", None), "command", None)
    return {"complete": complete, "exit_status": status, "spec_fingerprint": run_status.spec_fingerprint(),
            "isolated": command is not None, "command": command, "selected": len(tracker.selected),
            "finished": len(tracker.finished & tracker.selected), "faults": dict(sorted(tracker.faults.items())),
            "expectations": None if judgement is None else {
                "file": config.getoption("--expect"), "strict_levels": config.getoption("--strict-levels"),
                "unexpected_failures": judgement.unexpected, "expected_failures": judgement.expected,
                "unexpected_passes": judgement.unexpected_passes},
            "narrowed_by": selection.narrowed_by(config), "pytest": pytest_setup(config),
            "tests": {nodeid: {"level": level, "claims": list(claims), "outcome": str(outcome)}
                      for nodeid, (level, claims, outcome) in results.by_test.items()},
            "verdict_inputs": {
                "pytest_status": pytest_status, "strict_levels": bool(config.getoption("--strict-levels")),
                "strict_expect": bool(config.getoption("--strict-expect")),
                "require_data": bool(config.getoption("--require-data")),
                "expectations": judgement is not None, "missing_data": sorted(tracker.missing_data),
                "outside_failures": sorted(tracker.outside_failures),
                "suite_errors": sorted(tracker.suite_errors)}}


def as_json(results: Results, info: dict) -> dict:
    ledger = load_claims()
    resting_tests = results.not_judged_tests()
    levels = {level: {**counts, "status": level_status(counts), ClaimOutcome.NOT_JUDGED: resting_tests.get(level, 0)}
              for level, counts in results.per_level().items()}
    claims = {}
    broken, resting, unwitnessed = results.broken_claims(), results.not_judged(), results.unwitnessed()
    for cid, r in results.per_claim().items():
        claim = ledger.get(cid)
        claims[cid] = {"status": claim_status(cid, r, broken, resting, unwitnessed),
                       "level": claim.level if claim else None,
                       "statement": claim.statement if claim else None,
                       "sources": list(claim.sources) if claim else [],
                       "depends_on_tie_rule": claim.depends_on_tie_rule or None if claim else None,
                       "tests": {k: v for k, v in r.items() if v}}
        if cid in broken:
            claims[cid]["broken_by"] = broken[cid]
        if cid in resting:
            claims[cid]["rests_on_broken"] = [c for c in resting[cid] if not c.startswith(pattern_probe.MARK)]
            claims[cid]["not_judged_reason"] = resting_reason(resting[cid])
        elif claims[cid]["status"] == ClaimOutcome.NOT_JUDGED:
            claims[cid]["not_judged_reason"] = UNWITNESSED_REASON
        if (calls := results.calls_of(cid)) is not None:
            claims[cid]["calls"] = calls
        if r[Outcome.FAILED]:
            claims[cid]["tie_rule_excuse"] = results.tie_rule_excuse(cid) or None
            claims[cid]["first_failure"] = results.failures.get(r[Outcome.FAILED][0], "")
    reasons = {level: list(r) for level, r in results.reasons.items()}
    return {**info, "levels": levels, "suite_errors": results.suite_errors(), "root_causes": results.root_causes(),
            "claims": claims,
            "likely_mistakes": [d.message for d in results.diagnoses],
            "likely_mistakes_seen": teaching.as_json(results.diagnoses),
            "pattern_fixed": None if results.pattern_fixed is None else {
                "pattern": results.pattern_fixed.pattern, "seen": results.pattern_fixed.seen,
                "operations": sorted(results.pattern_fixed.operations),
                "message": pattern_probe.reason(results.pattern_fixed.pattern, results.pattern_fixed.operations)},
            "failures": results.failures, "skip_reasons": reasons,
            "document_keys": document_keys_in(claims)}


#: Why a claim whose tests passed is not judged when none of them called the implementation (issue 37, kind 4).
UNWITNESSED_REASON = "not judged: its tests passed without a single call into the implementation (only the suite's " \
                     "own checks ran)"


def claim_status(cid: str, outcomes: dict[str, list[str]], broken: dict[str, str],
                 resting: dict[str, tuple[str, ...]] | None = None, unwitnessed: set[str] = frozenset()) -> str:
    """failed (an assertion broke it, or it is the likely claim of a root cause), not judged (it would be failed,
    but rests on a claim broken in the run; or it would be passed, but no call reached the implementation),
    then could not run, passed, ..."""
    if cid in broken:
        return Outcome.FAILED
    if resting and cid in resting:
        return ClaimOutcome.NOT_JUDGED
    for status in (ClaimOutcome.COULD_NOT_RUN, Outcome.PASSED, Outcome.NOT_STARTED, Outcome.NOT_RUN):
        if outcomes[status]:
            return ClaimOutcome.NOT_JUDGED if status is Outcome.PASSED and cid in unwitnessed else status
    return ClaimOutcome.NOT_CHECKED


def write_json(path: Path, results: Results, info: dict) -> None:
    """Write atomically: a report is either complete or absent."""
    atomic_file.write_text(path, json.dumps(as_json(results, info), indent=2, sort_keys=False) + "\n")
