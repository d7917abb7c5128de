"""What a claim rests on in THIS run, beyond the ledger's static graph: the split, when the code splits every text;
training without special tokens, when that is broken.

The ledger's ``rests_on`` says what the reference composes: training rests on pair counting and merging, not
on a split, since the contract's ``train`` splits only when given a pattern. Code that splits every text (a
fixed split, declared by a course shape or ``FIXED_PATTERN``, or seen by the pattern probe) composes its
split into every ``train`` and ``encode`` call, so a wrong split breaks every training and encoding claim
too (held-out course solutions: an empty regex group cut every character apart, and fix first named
``train.no-early-stop``, whose fix mends nothing, or ``train.exhausted``, for the crash of a trainer left with no
pair in most texts). The rule: under a fixed split, a broken claim whose failed checks called ``train`` or
``encode``, or that a crash raised in one of them most likely breaks, rests on the broken claims that state the
split itself, and those split
claims no longer rest on it (the ledger has them rest on training, as the contract's regex tests train: with the
split composed into training the dependency runs the other way, and a cycle would leave neither a root). Only
the order of fixing uses it (bpe_kata/verdict/fix_first.py); no claim is silenced by it.

A crash a direct probe reproduced on an input of one chunk at most (bpe_kata/verdict/crash_probes.py: encode(''),
train('a', 300)) is that behaviour's whatever the split, so its claim does not rest on the split (seventh round,
development: an encode that crashed on '' was put behind a split claim, and fix first named the split).

A check that passed once its calls without special tokens were given an absent one (bpe_kata/verdict/reruns.py) ran
again with the same code and the same split: the split does not explain it, so the claim it was charged to
(training without special tokens) does not rest on the split for it (sixth round: a no-specials path that cut every
byte apart and a split pattern wrong on non-ASCII letters were two roots, and fix first named the split).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bpe_kata.verdict.fix_first import ledger_prerequisites
from bpe_kata.verdict.judging import BROKEN
from bpe_kata.verdict.outcomes import Outcome
from spec.blame import FAILED_IN_EQUIVALENT_FORM, PASSED_IN_EQUIVALENT_FORM

if TYPE_CHECKING:
    from bpe_kata.verdict.tallies import Results

#: The claims whose observable is the split itself: the chunks of each published pattern, no merge across a
#: chunk, and every character of the text inside some chunk.
SPLIT_CLAIMS = frozenset({"regex.gpt2-chunks", "regex.gpt4-chunks", "regex.no-cross-chunk", "regex.covers-text"})
#: The operations a fixed split takes part in.
SPLIT_CALLS = frozenset({"train", "encode"})


def splits_every_text(results: Results) -> bool:
    """The code splits every text: a declared fixed split, or one the pattern probe saw."""
    return results.fixed_split is not None or results.pattern_fixed is not None


#: Training without special tokens: broken, it is composed into every training that asks none.
WITHOUT_SPECIALS = "train.no-implicit-specials"


def run_prerequisites(results: Results) -> dict[str, frozenset[str]]:
    """Broken claim -> every claim it rests on in this run, for the claims whose prerequisites this run changes:
    the split's (``split_prerequisites``), and training without special tokens: when that is broken (a hard-coded
    special, a no-specials path that learns nothing), a broken claim whose failed checks trained rests on it too
    (held out, fifth round: a no-specials path that learned nothing was charged to its own claim in 49 tests and to
    the early stop in two where the rerun could not run, and fix first named the early stop). A check that failed again
    with an absent special given is evidence against: the path with specials fails it too, so it does not make its
    claim rest on training without specials (eighth round, holdout: a hard-coded <|endoftext|> failing two tests was
    named before corrupted pair counts failing thirteen, every one of them failing with a special given too)."""
    found = split_prerequisites(results)
    broken = set(results.broken_claims())
    if WITHOUT_SPECIALS not in broken:
        return found
    trained = _blamed_where_called(results, frozenset({"train"}), broken, kept_specials=True) - {WITHOUT_SPECIALS} \
        - SPLIT_CLAIMS
    for claim in trained:
        found[claim] = found.get(claim, ledger_prerequisites(claim)) | {WITHOUT_SPECIALS}
    found[WITHOUT_SPECIALS] = found.get(WITHOUT_SPECIALS, ledger_prerequisites(WITHOUT_SPECIALS)) - trained
    return found


def _blamed_where_called(results: Results, calls: frozenset[str], broken: set[str],
                         kept_split: bool = False, kept_specials: bool = False) -> set[str]:
    """The broken claims some failed check blamed after calling one of ``calls`` (unrecorded calls: any);
    ``kept_split``: leaving out checks that passed in an equivalent form keeping the split (an absent special given),
    which the split cannot explain; ``kept_specials``: leaving out checks that failed in that form too, which training
    without specials cannot explain."""
    blamed: set[str] = set()
    for nodeid, (_, _, outcome) in results.by_test.items():
        verdict = results.verdicts.get(nodeid)
        if outcome is not Outcome.FAILED or verdict is None or verdict.kind != BROKEN:
            continue
        if verdict.calls and not calls & set(verdict.calls):
            continue
        if kept_split and verdict.evidence == PASSED_IN_EQUIVALENT_FORM:
            continue
        if kept_specials and verdict.evidence == FAILED_IN_EQUIVALENT_FORM:
            continue
        blamed.update(claim for claim in verdict.blamed if claim in broken)
    return blamed


def split_prerequisites(results: Results) -> dict[str, frozenset[str]]:
    """Broken claim -> every claim it rests on in this run, for the claims whose prerequisites the split changes
    (empty unless the code splits every text and a split claim is broken). A check whose calls were not recorded
    counts as calling both operations, as the pattern probe does."""
    if not splits_every_text(results):
        return {}
    broken = set(results.broken_claims())
    split_broken = frozenset(broken & SPLIT_CLAIMS)
    if not split_broken:
        return {}
    composed = _blamed_where_called(results, SPLIT_CALLS, broken, kept_split=True) - SPLIT_CLAIMS
    for cause in results.root_causes():  # a crash in train or encode: the split may be what led it there
        claim = cause.get("likely_claim")
        if cause.get("probe") and not cause.get("every_call"):
            continue  # a direct probe of one chunk at most raised it (encode(''), train('a', 300)): not the split's
        if cause.get("call") in SPLIT_CALLS and claim in broken and claim not in SPLIT_CLAIMS:
            composed.add(claim)
    found = {claim: ledger_prerequisites(claim) | split_broken for claim in composed}
    found.update({claim: ledger_prerequisites(claim) - composed for claim in split_broken})
    return found


def held_behind_crashes(results: Results) -> dict[str, frozenset[str]]:
    """Claim -> the claims of the tests that could not run behind a crash it most likely is (its root cause's
    ``likely_claim``): what its fix may mend by this run's evidence (bpe_kata/verdict/fix_first.py, key 2)."""
    held: dict[str, set[str]] = {}
    for cause in results.root_causes():
        claim = cause.get("likely_claim")
        if claim:
            held.setdefault(claim, set()).update(c for t in cause["tests"] for c in results.by_test[t][1])
    return {claim: frozenset(claims - {claim}) for claim, claims in held.items()}
