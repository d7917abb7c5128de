"""What a run prints after pytest's own output: the root causes, the failing claims, the level table, the
likely mistakes and the claim to fix first; the verdict last, where the eye lands.

The same results as JSON are bpe_kata/verdict/report.py's; both read bpe_kata/verdict/tallies.py's tallies."""

from __future__ import annotations

from collections import defaultdict

from bpe_kata.impl.shape_parts import CONSTRUCTOR
from bpe_kata.verdict import composition, fix_first, pattern_probe, teaching
from bpe_kata.verdict.causes import claim_level, level_rank, resting_reason
from bpe_kata.verdict.outcomes import COLUMNS, ClaimOutcome, Outcome
from bpe_kata.verdict.tallies import Results, level_status
from spec.ledger import document_keys_in, load_claims


def render_table(results: Results, info: dict, hint: str = "") -> list[str]:
    """The lines printed after pytest's own output: the details first, the verdict last, where the eye lands
    (the likely mistake, the level table, the claim to fix first, then ``hint``: how to see more)."""
    lines = _render_failures(results)
    lines += _render_skip_reasons(results)
    lines += _render_document_keys(results)
    lines += ["", f"bpe-kata {info['suite_version']}: implementation {info['implementation']}"
                  f" ({info['module_file'] or info['module']})"]
    lines += pattern_probe.render(results.pattern_fixed)  # code that splits although given no pattern
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
    """The broken claim to fix first (bpe_kata/verdict/fix_first.py), or None when none is broken."""
    ordered = _fix_order(results, results.broken_claims())
    return ordered[0] if ordered else None


def _fix_order(results: Results, broken) -> list[str]:
    """``broken`` in the order of fixing, with what this run shows (bpe_kata/verdict/fix_first.py)."""
    return fix_first.order(broken, fix_first.diagnosed_claims(results.diagnoses),
                           composition.run_prerequisites(results), composition.held_behind_crashes(results))


def _render_fix_first(results: Results) -> list[str]:
    making = next((c for c in results.root_causes() if _made_whatever_the_input(c)), None)
    if making is not None:  # the object every call makes first cannot be made: before any claim
        return ["", f"fix first: making {making['call']} raises {making['exception']}, raised in {making['where']}",
                *[line[4:] for line in _crash_inputs(making)]]
    crashing = next((c for c in results.root_causes() if c.get("every_call")), None)
    if crashing is not None:  # a call that crashes on every input comes before any claim (crash_probes.py)
        return ["", f"fix first: every call of {crashing['call']}{_form_scope(crashing)} raises "
                    f"{crashing['exception']}, raised in {crashing['where']}",
                *[line[4:] for line in _crash_inputs(crashing)]]
    cid = first_to_fix(results)
    if cid is None:
        slow = next((c for c in results.root_causes() if c["exception"].startswith("too slow: ")), None)
        return ["", f"fix first: {slow['exception']}"] if slow is not None else []
    claim = load_claims().get(cid)
    lines = ["", f"fix first: {cid}: {claim.statement if claim else '(not in the ledger)'}"]
    # the likely mistake behind it, again: with sixteen levels in the table, the list above the table is out of
    # the last screen, and the verdict must be read there (issue 37, kind 8)
    named = next((d for d in results.diagnoses if cid in d.mistake.when), None)
    if named is not None:
        lines.append(f"  likely mistake: {named.message}")
    failed = _own_tests_first(results, cid, results.per_claim().get(cid, {}).get(Outcome.FAILED, []))
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
            lines += [line[4:] for line in _crash_inputs(cause)]
    return lines


def _own_tests_first(results: Results, cid: str, failed: list[str]) -> list[str]:
    """The claim's failures, those of a test written for it first (a test names its own claim first): the example
    under "fix first" is its plainest evidence, not a test of another claim charged to it (a CR folded to LF was
    shown through an early stop of training, with no word of the fold)."""
    def place(test: str) -> int:
        claims = tuple(results.by_test.get(test, (None, ()))[1])
        return claims.index(cid) if cid in claims else len(claims) + 1

    return sorted(failed, key=place)


def _crash_inputs(cause: dict) -> list[str]:
    """The call that crashed, and the direct probe that raised the same error (bpe_kata/verdict/crash_probes.py)."""
    lines = [f"      crashing call: {cause['input']}"] if cause.get("input") else []
    if _made_whatever_the_input(cause):
        lines.append(f"      it is raised in making a {cause['call'][:-2]}, which the calls make first: no claim is "
                     f"charged; make {cause['call']} run at all first")
    elif cause.get("every_call"):
        lines.append(f"      {cause['probe']} raise it too: {cause.get('call') or 'the call'}{_form_scope(cause)} "
                     f"crashes whatever the input, so no claim is charged; make {_what_to_run(cause, 'it')} run at "
                     "all first")
    elif cause.get("every_call_scope"):
        lines.append(f"      {cause['probe']} raise it too: {cause.get('call') or 'the call'}{_form_scope(cause)} "
                     f"crashes whatever the input, so the crash is that form's ({cause['likely_claim']})")
    elif cause.get("contrast"):
        lines.append(f"      {cause['probe']} raises it too, though it has a pair to merge, while "
                     f"{cause['contrast']} merges it: the crash is that form's ({cause['likely_claim']})")
    elif cause.get("same_crash_as"):
        lines.append(f"      the same crash as {cause['same_crash_as']}'s, which crashes whatever the input, met "
                     f"through {cause.get('call') or 'this call'}: no claim is charged; make "
                     f"{_what_to_run(cause, cause['same_crash_as'])} run at all first")
    elif cause.get("probe"):
        verb = "returns it too" if cause["exception"].startswith("malformed result") else "raises it too"
        lines.append(f"      {cause['probe']} {verb}: the crash is that behaviour's")
    return lines


def _what_to_run(cause: dict, call: str) -> str:
    """What to make run first: the constructor the crash is in (a course class's ``__init__``, which every call of the
    shape runs first: "make decode run" misled), else the call."""
    return "the class's constructor (__init__)" if _in_a_constructor(cause["where"]) else call


def _in_a_constructor(where: str) -> bool:
    """``__init__ (t.py:3)``, or a helper it calls: ``f (t.py:9) from __init__ (t.py:3)``."""
    return where.startswith("__init__ (") or " from __init__ (" in where


def _made_whatever_the_input(cause: dict) -> bool:
    """Raised in making the learner's object (``Tokenizer()``) on every call (bpe_kata/verdict/causes.py)."""
    return (cause["call"] or "").endswith(CONSTRUCTOR) and not cause["likely_claim"]


def _form_scope(cause: dict) -> str:
    """" without keyword arguments (calls with special_tokens returned)": a crash of one form of the call."""
    return f" {cause['every_call_scope']}" if cause.get("every_call_scope") else ""


def _indented(text: str, prefix: str) -> list[str]:
    return [prefix + line for line in text.splitlines()]


def _render_failures(results: Results) -> list[str]:
    """Root causes first (lowest level leading), then the claims an assertion broke, then those left unchecked."""
    ledger, per_claim, lines = load_claims(), results.per_claim(), []
    for error in results.suite_errors():
        tests = ", ".join(t.split("::", 1)[-1] for t in error["tests"][:3])
        lines += ["", f"SUITE ERROR: {error['exception']}",
                  f"  raised in the suite's own code, {error['where']}, in {len(error['tests'])} test(s): {tests}",
                  "  not the implementation's: no claim is charged; the run exits 6 (please report it to bpe-kata)"]
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
            lines += _crash_inputs(cause)
            if likely:
                lines.append(f"      most likely breaks {likely}: {statement}")
    resting = results.not_judged()
    broken = {cid: r for cid, r in per_claim.items() if r[Outcome.FAILED] and cid not in resting}
    if broken:
        lines += ["", f"claims broken ({len(broken)}): an assertion about them failed"]
        for cid in _fix_order(results, broken):
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
        split = results.pattern_fixed is not None
        lines += ["", f"claims not judged ({len(resting)}): a check about them failed, but they rest on a claim "
                      "broken in this run; fix that one first" + ("" if not split else
                                                                  " (or on a split pattern nobody declared)")]
        for cid in sorted(resting):  # by claim id: the same order in every run
            lines.append(f"  {cid}: {resting_reason(resting[cid])}")
    unwitnessed = sorted(results.unwitnessed() - set(resting) - set(results.broken_claims()))
    if unwitnessed:
        lines += ["", f"claims not judged ({len(unwitnessed)}): their tests passed without a single call into the "
                      "implementation (only the suite's own checks ran)", "  " + ", ".join(unwitnessed)]
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
            by_level[claim_level(cid) or "?"].append(cid)
        for level in sorted(by_level, key=level_rank):
            lines.append(f"  {level}: {', '.join(by_level[level])}")
    unchecked = sorted(cid for cid, r in per_claim.items() if r[ClaimOutcome.NOT_CHECKED] and not any(
        r[status] for status in (Outcome.FAILED, ClaimOutcome.COULD_NOT_RUN, Outcome.PASSED, Outcome.NOT_STARTED,
                                 Outcome.NOT_RUN)) and cid not in resting and cid not in likely)
    if unchecked:  # they were printed nowhere and read as "not started" (held out, fifth round)
        lines += ["", f"claims not checked ({len(unchecked)}): each of their tests failed first on another claim's "
                      "check above, before reaching theirs; fix that one and they are checked",
                  "  " + ", ".join(unchecked)]
    return lines


def _render_skip_reasons(results: Results) -> list[str]:
    """Each distinct reason once, with the levels it applies to (a missing corpus touches many levels)."""
    if not results.reasons:
        return []
    levels_of: dict[str, list[str]] = {}
    for level, reasons in sorted(results.reasons.items(), key=lambda kv: level_rank(kv[0])):
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

