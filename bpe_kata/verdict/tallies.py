"""The run's tallies: each spec test's outcome, by level and by claim, as the report hooks record them.

Which claim a failure or an error is blamed on is reasoned out in bpe_kata/verdict/causes.py; what is shown
from these tallies, in bpe_kata/verdict/summary.py (the terminal) and bpe_kata/verdict/report.py (JSON)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from bpe_kata.verdict import causes
from bpe_kata.verdict.judging import BROKEN, ERROR, SUITE, Verdict
from bpe_kata.verdict.outcomes import CLAIM_OUTCOMES, COLUMNS, ClaimOutcome, LevelStatus, Outcome
from spec.ledger import load_claims
from spec.levels import ALL_LEVEL_NAMES

#: Of a level's "not started" tests, those whose level is started but lacks an optional feature (a tie rule).
FEATURE_NOT_STARTED = "of which a feature not started"


def _skip_reason(rep) -> str:
    """The message a skip was given (pytest keeps it as "Skipped: message")."""
    reason = rep.longrepr[2] if isinstance(rep.longrepr, tuple) else str(rep.longrepr)
    return reason.removeprefix("Skipped: ")


@dataclass
class Results:
    """Outcomes of spec tests, by level and by claim (a test counts once, by its deciding phase)."""

    by_test: dict[str, tuple[str | None, tuple[str, ...], Outcome]] = field(default_factory=dict)
    failures: dict[str, str] = field(default_factory=dict)
    reasons: dict[str, dict[str, None]] = field(default_factory=dict)  # level -> distinct skip reasons
    verdicts: dict[str, Verdict] = field(default_factory=dict)  # failed test -> why (bpe_kata/verdict/judging.py)
    #: likely mistakes confirmed on the implementation (bpe_kata/verdict/teaching.py), set once the run is over
    diagnoses: list = field(default_factory=list)
    #: the published pattern the implementation looks fixed to (spec/split_probe.py), set once the run is over
    pattern_fixed: object = None
    #: the split pattern the implementation declares it always uses (a course shape, FIXED_PATTERN), set once the
    #: run is over; None: it declares none
    fixed_split: str | None = None
    #: root cause key -> the direct probe that raised the same error (bpe_kata/verdict/crash_probes.py), set once the
    #: run is over: the cause is blamed on that probe's claim
    reproduced: dict = field(default_factory=dict)
    #: test -> how many calls reached the implementation (bpe_kata/verdict/recording.py); absent: not recorded
    calls: dict[str, int] = field(default_factory=dict)
    #: the operations that returned a result in some test of the run (a crash on "every call" needs none to have)
    answered: set[str] = field(default_factory=set)

    def record(self, rep, outcome: Outcome, level: str | None, claims: tuple[str, ...],
               verdict: Verdict | None = None) -> None:
        """``outcome``: the one ``rep`` carries (bpe_kata.verdict.outcomes)."""
        if level is None and not claims:
            return
        previous = self.by_test.get(rep.nodeid)
        if previous and previous[2] is Outcome.FAILED:
            return  # a teardown pass never hides a failure
        self.by_test[rep.nodeid] = (level, claims, outcome)
        if outcome.column in (Outcome.NOT_STARTED, Outcome.NOT_RUN) and level:
            self.reasons.setdefault(level, {})[_skip_reason(rep)] = None
        if outcome is Outcome.FAILED:
            self.failures[rep.nodeid] = (verdict.detail if verdict else
                                         rep.longreprtext.strip().splitlines()[-1][:300] if rep.longreprtext else "")
            if verdict is not None:
                self.verdicts[rep.nodeid] = verdict

    def made_whatever_the_input(self, tests: list[str]) -> bool:
        """These tests' calls crashed in making the learner's object (``Tokenizer()``), and no call of the operations
        they called returned in the whole run: the object cannot be made, whatever the input."""
        calls = {self.verdicts[t].input.partition("(")[0] for t in tests if self.verdicts[t].input}
        return bool(calls) and not calls & {form.partition("+")[0] for form in self.answered}  # forms: train+pattern

    def failed_claims(self) -> set[str]:
        """Claims an assertion broke. A test that stopped at an error breaks none: the claims' other tests
        still run, which is what tells the root cause's likely claim apart."""
        return {claim for nodeid, (_, claims, outcome) in self.by_test.items() if outcome is Outcome.FAILED
                for claim in self._failed_on(nodeid, claims)}

    def _failed_on(self, nodeid: str, claims: tuple[str, ...]) -> tuple[str, ...]:
        verdict = self.verdicts.get(nodeid)
        if verdict is None:
            return claims
        return verdict.blamed if verdict.kind == BROKEN else ()

    def any_level_results(self) -> bool:
        return any(level for level, _, _ in self.by_test.values())

    def per_level(self) -> dict[str, dict[str, int]]:
        table: dict[str, dict[str, int]] = {}
        for level, _, outcome in self.by_test.values():
            if level:
                row = table.setdefault(level, dict.fromkeys((*COLUMNS, FEATURE_NOT_STARTED), 0))
                row[outcome.column] += 1
                row[FEATURE_NOT_STARTED] += outcome is Outcome.FEATURE_NOT_STARTED
        order = {name: i for i, name in enumerate(ALL_LEVEL_NAMES)}
        return dict(sorted(table.items(), key=lambda kv: order.get(kv[0], len(order))))

    def per_claim(self) -> dict[str, dict[str, list[str]]]:
        """Tests by claim and outcome. A failed test counts as failed only for the claims its assertion
        checks ("not checked" for its others) and as "could not run" for all of them after an error."""
        claims: dict[str, dict[str, list[str]]] = defaultdict(lambda: {o: [] for o in CLAIM_OUTCOMES})
        for nodeid, (_, ids, outcome) in self.by_test.items():
            verdict = self.verdicts.get(nodeid) if outcome is Outcome.FAILED else None
            if verdict is None:
                for claim in ids:
                    claims[claim][outcome.column].append(nodeid)
            elif verdict.kind in (ERROR, SUITE):  # a suite error is charged to no claim either
                for claim in ids:
                    claims[claim][ClaimOutcome.COULD_NOT_RUN].append(nodeid)
            else:
                for claim in dict.fromkeys((*verdict.blamed, *ids)):
                    claims[claim][Outcome.FAILED if claim in verdict.blamed else ClaimOutcome.NOT_CHECKED].append(
                        nodeid
                    )
        return dict(claims)

    def root_causes(self) -> list[dict]:
        """Errors grouped into root causes, lowest failing level first (bpe_kata.verdict.causes.root_causes)."""
        return causes.root_causes(self)

    def suite_errors(self) -> list[dict]:
        """Errors the suite's own code raised (bpe_kata/verdict/judging.py ``SUITE``), by type, message and place:
        reported apart, never a claim's, and the run exits with ``run_status.SUITE_ERROR``."""
        groups: dict[tuple[str, str], list[str]] = {}
        for nodeid, verdict in self.verdicts.items():
            if verdict.kind == SUITE:
                groups.setdefault((verdict.root_cause, verdict.where), []).append(nodeid)
        return [{"exception": cause, "where": where, "tests": tests} for (cause, where), tests in groups.items()]

    def broken_claims(self) -> dict[str, str]:
        """Claim -> how it broke: "assertion" (a check about it failed) or "root cause" (the error most
        likely breaks it).
        Claims "not judged" (resting on another broken claim) are left out: see ``not_judged``."""
        every = causes.every_broken(self)
        resting = self.not_judged()
        return {cid: how for cid, how in every.items() if cid not in resting}

    def not_judged(self) -> dict[str, tuple[str, ...]]:
        """Claim -> the broken claims it rests on, so a failure of it is not blamed on it
        (bpe_kata.verdict.causes.not_judged_claims)."""
        return causes.not_judged_claims(self)

    def calls_of(self, cid: str) -> int | None:
        """How many calls reached the implementation in the claim's tests that passed (None: not recorded)."""
        passed = self.per_claim().get(cid, {}).get(Outcome.PASSED, [])
        counts = [self.calls[nodeid] for nodeid in passed if nodeid in self.calls]
        return sum(counts) if counts else None

    def unwitnessed(self) -> set[str]:
        """Contract claims whose passing tests made not a single call into the implementation (issue 37, kind 4):
        only the suite's own checks ran (a pattern-fixed port's chunking claim checked on the spec's pattern
        alone), so "passed" would say nothing about the implementation; they are "not judged". Fact claims are
        the suite's own by definition; a run that recorded no counts (a report read back) demotes nothing."""
        ledger = load_claims()
        return {cid for cid, r in self.per_claim().items()
                if r[Outcome.PASSED] and not r[Outcome.FAILED] and not r[ClaimOutcome.COULD_NOT_RUN]  # that says more
                and cid in ledger and ledger[cid].kind == "contract"
                and all(nodeid in self.calls for nodeid in r[Outcome.PASSED]) and self.calls_of(cid) == 0}

    def tie_rule_excuse(self, cid: str) -> str:
        """The ledger's tie-rule excuse for a failed claim, when every failing check of it was on a table the
        implementation trained itself (``checking(..., own_training=True)``); else "" (spec tables: no excuse)."""
        claim = load_claims().get(cid)
        failed = self.per_claim().get(cid, {}).get(Outcome.FAILED, [])
        if not claim or not claim.depends_on_tie_rule or not failed:
            return ""
        verdicts = [self.verdicts.get(nodeid) for nodeid in failed]
        return claim.depends_on_tie_rule if all(v is not None and v.own_training for v in verdicts) else ""

    def not_judged_tests(self) -> dict[str, int]:
        """Level -> its failed tests whose every blamed claim is "not judged" (the level table says how many)."""
        resting = self.not_judged()
        counts: dict[str, int] = defaultdict(int)
        for nodeid, (level, claims, outcome) in self.by_test.items():
            blamed = self._failed_on(nodeid, claims) if outcome is Outcome.FAILED else ()
            if level and blamed and all(claim in resting for claim in blamed):
                counts[level] += 1
        return dict(counts)


def level_status(counts: dict[str, int]) -> LevelStatus:
    if counts[Outcome.FAILED]:
        return LevelStatus.FAILED
    not_started = counts[Outcome.NOT_STARTED]
    if not_started and counts.get(FEATURE_NOT_STARTED, 0) == not_started and counts[Outcome.PASSED]:
        return LevelStatus.PARTLY_STARTED  # e.g. one tie rule written, the others not
    if not_started:  # what passed there needed no implementation
        return LevelStatus.NOT_STARTED
    if counts[Outcome.PASSED] and not counts[Outcome.NOT_RUN]:
        return LevelStatus.GREEN
    return LevelStatus.PARTLY_RUN if counts[Outcome.PASSED] else LevelStatus.NOT_RUN

