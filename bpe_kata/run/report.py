"""What a run shows: the table per level, the failing claims, and the same as JSON."""

from __future__ import annotations

import json
import platform
import re
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import spec
from bpe_kata.run import atomic_file, fix_first, teaching
from bpe_kata.run.judging import BROKEN, ERROR, Verdict
from bpe_kata.run.outcomes import CLAIM_OUTCOMES, COLUMNS, ClaimOutcome, LevelStatus, Outcome
from spec.ledger import document_keys_in, load_claims, not_judged, prerequisites
from spec.levels import ALL_LEVEL_NAMES

#: The implementation's calls each core level's claims are about. An error raised in another call (a crash
#: in train while a decode test builds its table) says nothing about them: it is never read as breaking one
#: of them, nor as the error of a prerequisite they rest on. Levels not named here: any call may.
LEVEL_CALLS: dict[str, tuple[str, ...]] = {
    "bytes": ("encode",), "pairs": ("get_stats",), "merge": ("merge",), "train": ("train",),
    "decode": ("build_vocab", "decode"), "encode": ("encode",),
}

#: The operations an operation is built on (spec/CONTRACT.md): a table train learned carries its merges' defects.
BUILT_ON: dict[str, tuple[str, ...]] = {
    "train": ("train", "get_stats", "merge"),
    "encode": ("encode", "get_stats", "merge"),
}


def about_call(claim: str, call: str) -> bool:
    """An error raised in ``call`` may break ``claim``: its level is about that call (or says nothing)."""
    entry = load_claims().get(claim)
    calls = LEVEL_CALLS.get(entry.level) if entry is not None else None
    return not call or calls is None or call in calls


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
    verdicts: dict[str, Verdict] = field(default_factory=dict)  # failed test -> why (bpe_kata/run/judging.py)
    #: likely mistakes confirmed on the implementation (bpe_kata/run/teaching.py), set once the run is over
    diagnoses: list = field(default_factory=list)

    def record(self, rep, outcome: Outcome, level: str | None, claims: tuple[str, ...],
               verdict: Verdict | None = None) -> None:
        """``outcome``: the one ``rep`` carries (bpe_kata.run.outcomes)."""
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
            elif verdict.kind == ERROR:
                for claim in ids:
                    claims[claim][ClaimOutcome.COULD_NOT_RUN].append(nodeid)
            else:
                for claim in dict.fromkeys((*verdict.blamed, *ids)):
                    claims[claim][Outcome.FAILED if claim in verdict.blamed else ClaimOutcome.NOT_CHECKED].append(
                        nodeid
                    )
        return dict(claims)

    def root_causes(self) -> list[dict]:
        """Errors grouped by exception type, place, the call that raised and the message's shape
        (``_cause_key``), lowest failing level first, then the most tests."""
        groups: dict[tuple[str, ...], list[str]] = {}
        for nodeid, verdict in self.verdicts.items():
            if verdict.kind == ERROR:
                groups.setdefault(_cause_key(verdict), []).append(nodeid)
        per_claim = self.per_claim()
        causes = []
        for tests in groups.values():
            levels = sorted({self.by_test[t][0] for t in tests if self.by_test[t][0]}, key=_level_rank)
            first = self.verdicts[tests[0]]
            messages = list(dict.fromkeys(self.verdicts[t].root_cause for t in tests))
            causes.append(
                {
                    "exception": first.root_cause,
                    "messages": messages,
                    "where": first.where,
                    "call": first.call,
                    "count": len(tests),
                    "levels": levels,
                    "likely_claim": _likely_claim(tests, self.by_test, per_claim, first.call),
                    "tests": tests,
                }
            )
        return sorted(causes, key=lambda c: (_level_rank(c["levels"][0]) if c["levels"] else len(ALL_LEVEL_NAMES),
                                             -c["count"]))

    def broken_claims(self) -> dict[str, str]:
        """Claim -> how it broke: "assertion" (a check about it failed) or "root cause" (the error most
        likely breaks it).
        Claims "not judged" (resting on another broken claim) are left out: see ``not_judged``."""
        every = self._every_broken()
        resting = self.not_judged()
        return {cid: how for cid, how in every.items() if cid not in resting}

    def not_judged(self) -> dict[str, tuple[str, ...]]:
        """Claim -> the broken claims it rests on (spec/claims.toml ``rests_on``): a check about it failed, but
        in the same run a claim its tests also exercise broke, so the failure is not blamed on it.

        The ledger says which claims a claim's tests may exercise; the run says whether the failing ones did.
        A failed check may be the prerequisite's doing (a structural bug is blamed once) when its test called
        the operation the prerequisite is about or one built on it (bpe_kata/run/recording.py). An error is the
        prerequisite's only when it was raised in that call, in a test of the prerequisite too, or after the
        test called another operation built on it: an encode that raises on surrogates without any training
        does not rest on a trainer that crashes once no pair is left, nor a crash inside train on a get_stats
        that orders its counts otherwise. A claim with one failure no prerequisite explains is judged."""
        every = self._every_broken()
        candidates = not_judged(every)
        if not candidates:
            return candidates
        graph = prerequisites()
        causes = self.root_causes()

        def below(cid: str) -> set[str]:
            found, todo = set(), list(graph.get(cid, ()))
            while todo:
                other = todo.pop()
                if other not in found:
                    found.add(other)
                    todo.extend(graph.get(other, ()))
            return found & set(every)

        def about(other: str) -> set[str] | None:
            """The calls ``other``'s failure is about: for a claim only an error breaks, the calls that raised
            (an exhaustion crash in train, whatever the claim's level); else its level's (None: any call)."""
            if every.get(other) == "root cause":
                raised = {c["call"] for c in causes if c["likely_claim"] == other}
                if raised and all(raised):
                    return raised
            calls = LEVEL_CALLS.get(_claim_level(other) or "")
            return set(calls) if calls is not None else None

        def explains(other: str, cause: dict) -> bool:
            """The error may be ``other``'s: raised in the call ``other`` is about, in a test of ``other`` too, or
            after the test called another operation built on that call (a table its train learned)."""
            calls = about(other)
            if calls is None or not cause["call"] or cause["call"] in calls:
                return True
            if any(other in self.by_test[t][1] for t in cause["tests"]):
                return True
            return any(op != cause["call"] and set(BUILT_ON.get(op, (op,))) & calls
                       for t in cause["tests"] for op in self.verdicts[t].calls)

        def checked_after(other: str, nodeid: str) -> bool:
            """A failed check may be ``other``'s: the test called the operation ``other`` is about, or one built
            on it (train on get_stats and merge), or the run does not say which it called."""
            calls = about(other)
            verdict = self.verdicts.get(nodeid)
            if calls is None or verdict is None or not verdict.calls:
                return True
            return any(set(BUILT_ON.get(op, (op,))) & calls for op in verdict.calls)

        per_claim = self.per_claim()
        explaining: dict[str, set[str]] = {}
        for cid in candidates:
            under = below(cid)
            evidence = [
                lambda other, t=t: checked_after(other, t) for t in per_claim.get(cid, {}).get(Outcome.FAILED, [])
            ]
            evidence += [lambda other, c=c: explains(other, c) for c in causes if c["likely_claim"] == cid]
            if all(any(seen(other) for other in under) for seen in evidence):
                explaining[cid] = {other for other in under if all(seen(other) for seen in evidence)} or under
        order = {cid: i for i, cid in enumerate(graph)}
        result = {}
        for cid, under in explaining.items():
            shown = sorted(under - set(explaining), key=lambda c: order.get(c, len(order)))
            result[cid] = tuple(shown or sorted(under, key=lambda c: order.get(c, len(order))))
        return result

    def _every_broken(self) -> dict[str, str]:
        broken = {cid: "assertion" for cid, r in self.per_claim().items() if r[Outcome.FAILED]}
        for cause in self.root_causes():
            if cause["likely_claim"]:
                broken.setdefault(cause["likely_claim"], "root cause")
        return broken

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


_DATA_IN_MESSAGE = re.compile(r"0x[0-9a-fA-F]+|\d+|'[^']*'|\"[^\"]*\"")


def _cause_key(verdict: Verdict) -> tuple[str, ...]:
    """One root cause: the same exception type, raised at the same place, from the same call.

    The place is the implementation's own line with its own callers (bpe_kata/run/frames.py), so one helper
    raising for two bugs, called from two lines, is two causes; errors at one place and call differ
    in their data only (a strict decode meets several bytes), and the cause lists every message.
    Where the place says nothing (``?``: a child that sends no frame, or only the line its message
    names; an adapter's own line), the message's wording splits causes too (numbers and quoted values,
    its data, do not), so two bugs are never one cause shown with the other's message."""
    type_name, _, message = verdict.root_cause.partition(":")
    shape = _DATA_IN_MESSAGE.sub("#", message.strip()) if verdict.where.startswith("?") else ""
    return type_name, verdict.where, verdict.call, shape


def _level_rank(level: str | None) -> int:
    return ALL_LEVEL_NAMES.index(level) if level in ALL_LEVEL_NAMES else len(ALL_LEVEL_NAMES)


def _likely_claim(tests: list[str], by_test: dict, per_claim: dict[str, dict[str, list[str]]],
                  call: str = "") -> str | None:
    """The claim this error most likely breaks: the one it explains best, scored as the share of the claim's
    run tests it explains times their number (a share of one from a claim's single test is weaker evidence
    than a share of one over four tests); ties go to the lowest level, then to ledger order. Only claims
    about the call that raised (``about_call``): a crash in train while a decode test builds its table
    breaks no decode claim, and when no claim of its tests is about that call, there is none."""
    ledger_order = {cid: i for i, cid in enumerate(load_claims())}
    explained: dict[str, int] = defaultdict(int)
    for nodeid in tests:
        for claim in by_test[nodeid][1]:
            if about_call(claim, call):
                explained[claim] += 1
    if not explained:
        return None

    def rank(claim: str) -> tuple:
        r = per_claim.get(claim, {})
        run = sum(len(r.get(o, [])) for o in (Outcome.PASSED, Outcome.FAILED, *ClaimOutcome))
        level = load_claims()[claim].level if claim in ledger_order else None
        return (-explained[claim] ** 2 / max(run, 1), _level_rank(level), ledger_order.get(claim, len(ledger_order)))

    return min(explained, key=rank)


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


def run_info(impl_value: str, module) -> dict:
    return {
        "suite": "bpe-kata",
        "suite_version": spec.__version__,
        "implementation": impl_value,
        "module": getattr(module, "__name__", "?"),
        "module_file": getattr(module, "__file__", None),
        "python": platform.python_version(),
    }


def render_table(results: Results, info: dict, hint: str = "") -> list[str]:
    """The lines printed after pytest's own output: the details first, the verdict last, where the eye lands
    (the likely mistake, the level table, the claim to fix first, then ``hint``: how to see more)."""
    lines = _render_failures(results)
    lines += _render_skip_reasons(results)
    lines += _render_document_keys(results)
    lines += ["", f"bpe-kata {info['suite_version']}: implementation {info['implementation']}"
                  f" ({info['module_file'] or info['module']})"]
    lines += teaching.render(results.diagnoses)  # one sentence per confirmed likely mistake
    widths = dict(zip(COLUMNS, (8, 8, 13, 9)))
    header = f"{'level':<11}" + "".join(f"{column:>{width}}" for column, width in widths.items()) + "   status"
    lines += [header, "-" * len(header)]
    resting = results.not_judged_tests()
    for level, counts in results.per_level().items():
        note = f" ({resting[level]} of them not judged)" if resting.get(level) else ""
        lines.append(f"{level:<11}" + "".join(f"{counts[column]:>{width}}" for column, width in widths.items())
                     + f"   {level_status(counts)}{note}")
    lines += _render_fix_first(results)
    return lines + ([hint] if hint and results.failures else [])


#: Lines of the first failure repeated under "fix first" (the whole of it is in the claims list above).
FIX_FIRST_LINES = 4


def first_to_fix(results: Results) -> str | None:
    """The broken claim to fix first (bpe_kata/run/fix_first.py), or None when none is broken."""
    broken = results.broken_claims()
    ordered = fix_first.order(broken, fix_first.diagnosed_claims(results.diagnoses))
    return ordered[0] if ordered else None


def _render_fix_first(results: Results) -> list[str]:
    cid = first_to_fix(results)
    if cid is None:
        return []
    claim = load_claims().get(cid)
    lines = ["", f"fix first: {cid}: {claim.statement if claim else '(not in the ledger)'}"]
    failed = results.per_claim().get(cid, {}).get(Outcome.FAILED, [])
    if failed and results.failures.get(failed[0]):
        text = results.failures[failed[0]].splitlines()
        lines.append(f"  {failed[0].split('::', 1)[-1]}:")
        lines += [f"    {line}" for line in text[:FIX_FIRST_LINES]]
        lines += [f"    ... ({len(text) - FIX_FIRST_LINES} more lines in the claims list above)"] \
            if len(text) > FIX_FIRST_LINES else []
    else:
        cause = next((c for c in results.root_causes() if c["likely_claim"] == cid), None)
        if cause is not None:
            lines.append(f"  {cause['exception']}, raised in {cause['where']}")
    return lines


def _indented(text: str, prefix: str) -> list[str]:
    return [prefix + line for line in text.splitlines()]


def _render_failures(results: Results) -> list[str]:
    """Root causes first (lowest level leading), then the claims an assertion broke, then those left unchecked."""
    ledger, per_claim, lines = load_claims(), results.per_claim(), []
    causes = results.root_causes()
    if causes:
        lines += ["", f"root causes ({len(causes)}): the implementation raised before the spec could check"]
        for number, cause in enumerate(causes, 1):
            likely = cause["likely_claim"]
            statement = ledger[likely].statement if likely in ledger else ""
            lines.append(f"  {number}. {cause['exception']}")
            others = cause.get("messages", [])[1:]
            lines += [f"      also: {message}" for message in others[:3]]
            lines += [f"      and {len(others) - 3} more message(s)"] if len(others) > 3 else []
            call = f" (in a call to {cause['call']})" if cause.get("call") else ""
            lines.append(
                f"      raised in {cause['where']}{call}; {cause['count']} test(s) over {len(cause['levels'])} "
                f"level(s): {', '.join(cause['levels'])}"
            )
            if likely:
                lines.append(f"      most likely breaks {likely}: {statement}")
    resting = results.not_judged()
    broken = {cid: r for cid, r in per_claim.items() if r[Outcome.FAILED] and cid not in resting}
    if broken:
        lines += ["", f"claims broken ({len(broken)}): an assertion about them failed"]
        for cid in fix_first.order(broken, fix_first.diagnosed_claims(results.diagnoses)):
            r = broken[cid]
            claim = ledger.get(cid)
            statement = claim.statement if claim else "(not in the ledger)"
            sources = "; ".join(claim.sources) if claim and claim.sources else "project addition"
            lines.append(f"  {cid}: {statement}")
            lines.append(f"      source: {sources}")
            excuse = results.tie_rule_excuse(cid)
            if excuse:
                lines.append(f"      holds only under the {excuse} tie rule: "
                             "a trainer whose default breaks ties another documented way may fail it")
            failed = r[Outcome.FAILED]
            lines.append(f"      failing tests: {', '.join(n.split('::', 1)[-1] for n in failed[:4])}"
                         + (f" and {len(failed) - 4} more" if len(failed) > 4 else ""))
            first = results.failures.get(failed[0], "")
            if first:
                lines.append("      first failure:")
                lines += _indented(first, "        ")
    if resting:
        lines += ["", f"claims not judged ({len(resting)}): a check about them failed, but they rest on a claim "
                      "broken in this run; fix that one first"]
        for cid in sorted(resting, key=lambda c: _level_rank(_claim_level(c))):
            lines.append(f"  {cid}: not judged: rests on {', '.join(resting[cid])}, which is broken")
    likely = {cause["likely_claim"] for cause in causes}
    stopped = {cid: r for cid, r in per_claim.items()
               if r[ClaimOutcome.COULD_NOT_RUN] and not r[Outcome.FAILED] and cid not in likely and cid not in resting}
    if stopped:
        lines += [
            "",
            f"claims whose tests could not run because of an earlier error ({len(stopped)}; see root causes):",
        ]
        by_level: dict[str, list[str]] = defaultdict(list)
        for cid in stopped:
            by_level[_claim_level(cid) or "?"].append(cid)
        for level in sorted(by_level, key=_level_rank):
            lines.append(f"  {level}: {', '.join(by_level[level])}")
    return lines


def _claim_level(cid: str) -> str | None:
    claim = load_claims().get(cid)
    return claim.level if claim else None


def _render_skip_reasons(results: Results) -> list[str]:
    """Each distinct reason once, with the levels it applies to (a missing corpus touches many levels)."""
    if not results.reasons:
        return []
    levels_of: dict[str, list[str]] = {}
    for level, reasons in sorted(results.reasons.items(), key=lambda kv: _level_rank(kv[0])):
        for reason in reasons:
            levels_of.setdefault(reason, []).append(level)
    lines = ["", "why tests did not run:"]
    for reason, levels in levels_of.items():
        lines.append(f"  {', '.join(levels)}: {reason}")
    return lines


def _render_document_keys(results: Results) -> list[str]:
    """Explain the short document keys (``d1`` in ``corpus.d1-merges``) of the claim ids printed above."""
    shown = [cid for cid, r in results.per_claim().items() if r[Outcome.FAILED] or r[ClaimOutcome.COULD_NOT_RUN]]
    keys = document_keys_in(shown)
    if not keys:
        return []
    return ["", "document keys in claim ids:"] + [f"  {key} = {title}" for key, title in keys.items()]


def as_json(results: Results, info: dict) -> dict:
    ledger = load_claims()
    resting_tests = results.not_judged_tests()
    levels = {level: {**counts, "status": level_status(counts), ClaimOutcome.NOT_JUDGED: resting_tests.get(level, 0)}
              for level, counts in results.per_level().items()}
    claims = {}
    broken, resting = results.broken_claims(), results.not_judged()
    for cid, r in results.per_claim().items():
        claim = ledger.get(cid)
        claims[cid] = {"status": claim_status(cid, r, broken, resting), "level": claim.level if claim else None,
                       "statement": claim.statement if claim else None,
                       "sources": list(claim.sources) if claim else [],
                       "depends_on_tie_rule": claim.depends_on_tie_rule or None if claim else None,
                       "tests": {k: v for k, v in r.items() if v}}
        if cid in broken:
            claims[cid]["broken_by"] = broken[cid]
        if cid in resting:
            claims[cid]["rests_on_broken"] = list(resting[cid])
        if r[Outcome.FAILED]:
            claims[cid]["tie_rule_excuse"] = results.tie_rule_excuse(cid) or None
            claims[cid]["first_failure"] = results.failures.get(r[Outcome.FAILED][0], "")
    reasons = {level: list(r) for level, r in results.reasons.items()}
    return {**info, "levels": levels, "root_causes": results.root_causes(), "claims": claims,
            "likely_mistakes": [d.message for d in results.diagnoses],
            "likely_mistakes_seen": teaching.as_json(results.diagnoses),
            "failures": results.failures, "skip_reasons": reasons,
            "document_keys": document_keys_in(claims)}


def claim_status(cid: str, outcomes: dict[str, list[str]], broken: dict[str, str],
                 resting: dict[str, tuple[str, ...]] | None = None) -> str:
    """failed (an assertion broke it, or it is the likely claim of a root cause), not judged (it would be failed,
    but rests on a claim broken in the run), then could not run, passed, ..."""
    if cid in broken:
        return Outcome.FAILED
    if resting and cid in resting:
        return ClaimOutcome.NOT_JUDGED
    for status in (ClaimOutcome.COULD_NOT_RUN, Outcome.PASSED, Outcome.NOT_STARTED, Outcome.NOT_RUN):
        if outcomes[status]:
            return status
    return ClaimOutcome.NOT_CHECKED


def write_json(path: Path, results: Results, info: dict) -> None:
    """Write atomically: a report is either complete or absent."""
    atomic_file.write_text(path, json.dumps(as_json(results, info), indent=2, sort_keys=False) + "\n")
