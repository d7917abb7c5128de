"""Failures that only a split pattern explains: code that splits every text although it was given no pattern.

When checks comparing ``train`` or ``encode`` without a pattern with whole-text results failed, and the
implementation declares no ``FIXED_PATTERN``, the run asks its behaviour (spec/split_probe.py) whether it
splits with a published pattern. If it does, those failures say nothing the spec can judge without knowing
the split: they are "not judged" with that reason (bpe_kata/verdict/causes.py), the report says once what to
declare, and the checks that hold whatever the split (``SPLIT_FREE_CLAIMS``) and every error stay judged.
The probe costs nothing on a green run: it runs only when such a check failed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bpe_kata.verdict import teaching
from bpe_kata.verdict.judging import BROKEN
from bpe_kata.verdict.outcomes import Outcome
from spec import fixed_pattern, split_probe
from spec.levels import BY_NAME, SPLIT_FREE_CLAIMS, UNSPLIT

if TYPE_CHECKING:
    from bpe_kata.verdict.tallies import Results

#: The prefix that marks a "not judged" reason as the split's, not a broken prerequisite's.
MARK = "pattern-fixed:"
#: The operations whose results a split changes.
SPLIT_CALLS = frozenset({"train", "encode"})


def split_dependent_failures(results: Results, operations: frozenset[str] = SPLIT_CALLS) -> dict[str, list[str]]:
    """Claim -> its failed checks that a split could explain: an assertion (never an error) in a test of a
    level that compares unsplit results, which called train or encode, only those of them in ``operations``
    (the ones the probe saw split; a test whose calls are unknown needs both), on a claim that does not hold
    whatever the split."""
    found: dict[str, list[str]] = {}
    for nodeid, (level, _, outcome) in results.by_test.items():
        verdict = results.verdicts.get(nodeid)
        if outcome is not Outcome.FAILED or verdict is None or verdict.kind != BROKEN:
            continue
        if level not in BY_NAME or BY_NAME[level].split != UNSPLIT:
            continue
        called = SPLIT_CALLS & set(verdict.calls) if verdict.calls else SPLIT_CALLS
        if not called or not called <= operations:
            continue
        for claim in verdict.blamed:
            if claim not in SPLIT_FREE_CLAIMS:
                found.setdefault(claim, []).append(nodeid)
    return found


def excused(results: Results) -> set[str]:
    """The claims "not judged" because the implementation looks pattern-fixed: every failed check of the claim
    is one a split could explain (a claim with one failure no split explains stays judged)."""
    seen = results.pattern_fixed
    if seen is None:
        return set()
    dependent = split_dependent_failures(results, seen.operations)
    per_claim = results.per_claim()
    return {claim for claim, tests in dependent.items()
            if set(per_claim.get(claim, {}).get(Outcome.FAILED, [])) <= set(tests)}


def probe(results: Results, implementation) -> split_probe.PatternFixed | None:
    """Run the probe when a split-dependent check failed and the implementation declared no pattern."""
    if implementation is None or not split_dependent_failures(results):
        return None
    try:
        if fixed_pattern.fixed_pattern(implementation) is not None:
            return None
    except fixed_pattern.BadFixedPattern:
        return None
    connect = getattr(implementation, "connect", None)
    if callable(connect):  # the isolated client starts its child on first use
        try:
            connect()
        except BaseException:
            return None
    answer = teaching.run_callable(lambda: split_probe.looks_pattern_fixed(implementation), "split pattern")
    return answer or None


def reason(pattern: str, operations: frozenset[str] = SPLIT_CALLS) -> str:
    which = " and ".join(sorted(operations, key=["train", "encode"].index))
    verb = "splits" if len(operations) == 1 else "split"
    return (f"looks pattern-fixed ({pattern}): declare FIXED_PATTERN = \"{pattern}\" (spec/CONTRACT.md) to have it "
            f"judged level by level; {which} {verb} every text with {pattern}'s pattern although given none")


def short_reason(pattern: str) -> str:
    """The same, per claim (the whole sentence is printed once, above the level table)."""
    return f"looks pattern-fixed ({pattern}): declare FIXED_PATTERN = \"{pattern}\""


def render(seen: split_probe.PatternFixed | None) -> list[str]:
    if seen is None:
        return []
    return [reason(seen.pattern, seen.operations), f"  seen: {seen.seen}"]
