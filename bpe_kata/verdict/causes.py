"""Which claim a failure is blamed on: errors grouped into root causes, each with the claim it most likely
breaks, and the claims not judged because they rest on another claim broken in the same run. Apart from the
tallies (bpe_kata/verdict/tallies.py): this part reasons on calls, operations and claims (spec/claims.toml)."""

from __future__ import annotations

import json
import re
from collections import defaultdict
from typing import TYPE_CHECKING

from bpe_kata.impl.shape_parts import CONSTRUCTOR, NOT_THE_INTERFACE
from bpe_kata.verdict import pattern_probe, same_crash, substitution
from bpe_kata.verdict.judging import BROKEN, ERROR, Verdict
from bpe_kata.verdict.outcomes import ClaimOutcome, Outcome
from bpe_kata.verdict.recording import call_form
from spec.ledger import load_claims, not_judged, prerequisites
from spec.levels import ALL_LEVEL_NAMES

if TYPE_CHECKING:
    from bpe_kata.verdict.tallies import Results

#: The implementation's calls each level's claims are about. An error raised in another call (a crash in train
#: while a decode, round-trip or special-token test builds its table) says nothing about them: it is never read
#: as breaking one of them, nor as the error of a prerequisite they rest on. Levels not named here (facts, whose
#: tests call nothing; stream, whose decoder's methods are the implementation's own names): any call may.
LEVEL_CALLS: dict[str, tuple[str, ...]] = {
    "bytes": ("encode",), "pairs": ("get_stats",), "merge": ("merge",), "train": ("train",),
    "decode": ("build_vocab", "decode"), "encode": ("encode",),
    "roundtrip": ("encode", "build_vocab", "decode"),
    "surrogates": ("train", "encode"),  # a strict UTF-8 encode raises in either
    "regex": ("train", "encode", "build_vocab", "decode"),  # chunks in train and encode; regex.roundtrip decodes
    "special": ("encode", "build_vocab", "decode"),  # train takes no special tokens
    "persist": ("save", "load", "encode", "build_vocab", "decode"),  # a loaded table is read through encode
    "pretrained": ("encode", "build_vocab", "decode"),  # published tables: nothing is trained
    "words": ("train_words", "segment_word"),
    "ties": ("train",),
}

def about_call(claim: str, call: str) -> bool:
    """An error raised in ``call`` may break ``claim``: its level is about that call (or says nothing, or the call
    makes the object every call uses: ``Tokenizer()``)."""
    entry = load_claims().get(claim)
    calls = LEVEL_CALLS.get(entry.level) if entry is not None else None
    return not call or call.endswith(CONSTRUCTOR) or calls is None or call in calls


#: The claims whose operation is not their level's (the special level's train and encode_iterable claims): two
#: claims of one level about different operations are told apart by a swap, like claims of two levels.
CLAIM_CALLS: dict[str, tuple[str, ...]] = {"encode.iterable": ("encode_iterable",), "train.special-tokens": ("train",)}


def claim_calls(cid: str) -> tuple[str, ...]:
    """The operations a claim is about: its own (``CLAIM_CALLS``), else its level's."""
    return CLAIM_CALLS.get(cid) or LEVEL_CALLS.get(claim_level(cid) or "", ())


def too_slow(verdict: Verdict) -> bool:
    """A test over its budget (bpe_kata/child/launch.py): a root cause charged to no claim."""
    return verdict.root_cause.startswith("too slow: ")


def root_causes(results: Results) -> list[dict]:
    """Errors grouped by exception type, place, the call that raised and the message's shape
    (``_cause_key``), lowest failing level first, then the most tests."""
    groups: dict[tuple[str, ...], list[str]] = {}
    for nodeid, verdict in results.verdicts.items():
        if verdict.kind == ERROR:
            claims = results.by_test.get(nodeid, ("", ()))[1]
            groups.setdefault(group_key(verdict, results.reproduced, claims), []).append(nodeid)
    per_claim = results.per_claim()
    causes = []
    taken: dict[str, set[str]] = defaultdict(set)  # call -> the likely claims of larger causes raised in it
    for key, tests in sorted(groups.items(), key=lambda group: (-len(group[1]), group[1][0])):
        levels = sorted({results.by_test[t][0] for t in tests if results.by_test[t][0]}, key=level_rank)
        first = results.verdicts[tests[0]]
        messages = list(dict.fromkeys(results.verdicts[t].root_cause for t in tests))
        reproduced = results.reproduced.get(key)  # a direct probe raised it (crash_probes.py)
        inputs = [results.verdicts[t].input for t in tests if results.verdicts[t].input]
        cause = {
            "exception": first.root_cause,
            "messages": messages,
            "where": first.where,
            "call": first.call,
            "count": len(tests),
            "levels": levels,
            "likely_claim": (reproduced.claim or None) if reproduced else None if too_slow(first) or NOT_THE_INTERFACE
            in first.root_cause or (first.call or "").endswith(CONSTRUCTOR) and results.made_whatever_the_input(tests)
            else _likely_claim(tests, results.by_test, per_claim, first.call, taken[first.call]),
            "tests": tests,
        }
        if inputs:  # the smallest crashing call the tests drew (Hypothesis replays its shrunk example last)
            cause["input"] = min(inputs, key=len)
        if reproduced:
            cause["probe"] = reproduced.probe
            if not reproduced.claim:  # its control raised it too: every call crashes, no behaviour is to blame
                cause["every_call"] = True
            if reproduced.scope:  # of one form: calls of others returned (a claim only when they name it)
                cause["every_call_scope"] = reproduced.scope.strip()
            if reproduced.contrast:  # one line raising for two behaviours: this form's crashes (split_by_form)
                cause["contrast"] = reproduced.contrast
        causes.append(cause)
        if causes[-1]["likely_claim"]:
            taken[first.call].add(causes[-1]["likely_claim"])
    same_crash.charge_none_for_the_same_crash(causes)
    return sorted(causes, key=lambda c: (level_rank(c["levels"][0]) if c["levels"] else len(ALL_LEVEL_NAMES),
                                         -c["count"]))


def not_judged_claims(results: Results) -> dict[str, tuple[str, ...]]:
    """Claim -> the broken claims it rests on that this run shows at fault: a check about it failed, but the
    failure went away when the test ran again with that claim's operation swapped for the oracle's
    (bpe_kata/verdict/substitution.py, ``Verdict.cleared_by``), so the failure is not blamed on it.

    The ledger (spec/claims.toml ``rests_on``) only says which claims may be at fault: true of the
    reference's composition, not of every implementation's (a train that never calls its get_stats). A static
    prerequisite of another level alone never silences a claim: every failure of the claim (each failed
    check, and each error whose likely claim it is) must have gone away under the swap of a broken
    prerequisite's operation. Where nothing could be swapped (through the protocol, an adapter's closure) the
    claim is judged on its own observable. A prerequisite of the claim's own level is about the same
    operation, which no swap can split (decode.replace-128 behind decode.join-then-decode): it explains a
    failure when the failing test called that operation, as the run recorded. The prerequisites named are
    those that explain a failure of the claim in this run."""
    split = pattern_probe.excused(results)
    every = {cid: how for cid, how in every_broken(results).items() if cid not in split}
    candidates = not_judged(every)
    if not candidates:
        return _with_split(candidates, split, results)
    graph = prerequisites()
    causes = root_causes(results)

    def below(cid: str) -> set[str]:
        found, todo = set(), list(graph.get(cid, ()))
        while todo:
            other = todo.pop()
            if other not in found:
                found.add(other)
                todo.extend(graph.get(other, ()))
        return found & set(every)

    def cleared(other: str, nodeids: list[str]) -> bool:
        """A failure is ``other``'s: one of its tests passed with ``other``'s operation swapped for the oracle's."""
        swap = substitution.of_claim(other)
        return swap is not None and any(
            swap in getattr(results.verdicts.get(nodeid), "cleared_by", ()) for nodeid in nodeids)

    def called(other: str, nodeids: list[str]) -> bool:
        """Of one operation, no swap tells two claims apart: the failure may be ``other``'s when its test called
        the operation ``other``'s level is about (or the run does not say what it called). A claim broken only
        by a crash explains errors, never a failed check of a value the operation did return."""
        calls = LEVEL_CALLS.get(claim_level(other) or "")
        verdicts = [results.verdicts.get(nodeid) for nodeid in nodeids]
        if every.get(other) == "root cause" and verdicts and all(v is not None and v.kind == BROKEN for v in verdicts):
            return False
        return calls is None or any(v is None or not v.calls or set(v.calls) & set(calls) for v in verdicts)

    def explains(cid: str, other: str, nodeids: list[str]) -> bool:
        own, theirs = set(claim_calls(cid)), set(claim_calls(other))  # unknown (a level's without calls): the same
        same = claim_level(other) == claim_level(cid) and (not own or not theirs or bool(own & theirs))
        return called(other, nodeids) if same else cleared(other, nodeids)

    per_claim = results.per_claim()
    explaining: dict[str, set[str]] = {}
    for cid in candidates:
        under = below(cid)
        evidence = [[t] for t in per_claim.get(cid, {}).get(Outcome.FAILED, [])]
        evidence += [c["tests"] for c in causes if c["likely_claim"] == cid]
        seen = [{other for other in under if explains(cid, other, nodeids)} for nodeids in evidence]
        if evidence and all(seen):
            explaining[cid] = set().union(*seen)
    order = {cid: i for i, cid in enumerate(graph)}
    result = {}
    for cid, under in explaining.items():
        shown = sorted(under - set(explaining), key=lambda c: order.get(c, len(order)))
        result[cid] = tuple(shown or sorted(under, key=lambda c: order.get(c, len(order))))
    return _with_split(result, split, results)


def _with_split(resting: dict[str, tuple[str, ...]], split: set[str], results: Results) -> dict[str, tuple[str, ...]]:
    """The prerequisites' "not judged" and the split's (bpe_kata/verdict/pattern_probe.py), by claim id: the same
    order in every run."""
    merged = dict(resting)
    for cid in split:
        merged[cid] = (pattern_probe.MARK + results.pattern_fixed.pattern,)
    return dict(sorted(merged.items()))


def resting_reason(on: tuple[str, ...]) -> str:
    """Why a claim is not judged, as a sentence: the broken claims it rests on, or the split it was not told."""
    if len(on) == 1 and on[0].startswith(pattern_probe.MARK):
        return "not judged: " + pattern_probe.short_reason(on[0].removeprefix(pattern_probe.MARK))
    return f"not judged: rests on {', '.join(on)}, which is broken"


def every_broken(results: Results) -> dict[str, str]:
    """Claim -> how it broke, "not judged" ones included (``Results.broken_claims`` leaves them out)."""
    broken = {cid: "assertion" for cid, r in results.per_claim().items() if r[Outcome.FAILED]}
    for cause in root_causes(results):
        if cause["likely_claim"]:
            broken.setdefault(cause["likely_claim"], "root cause")
    return broken


_DATA_IN_MESSAGE = re.compile(r"0x[0-9a-fA-F]+|\d+|'[^']*'|\"[^\"]*\"")


def cause_key(verdict: Verdict) -> tuple[str, ...]:
    """One root cause: the same exception type, raised at the same place, from the same call.

    The place is the implementation's own line with its own callers (bpe_kata/impl/frames.py), so one helper
    raising for two bugs, called from two lines, is two causes; errors at one place and call differ
    in their data only (a strict decode meets several bytes), and the cause lists every message.
    Where the place says nothing (``?``: a child that sends no frame, or only the line its message
    names; an adapter's own line), the message's wording splits causes too (numbers and quoted values,
    its data, do not), so two bugs are never one cause shown with the other's message."""
    type_name, _, message = verdict.root_cause.partition(":")
    shape = _DATA_IN_MESSAGE.sub("#", message.strip()) if verdict.where.startswith("?") else ""
    return type_name, verdict.where, verdict.call, shape


_cause_key = cause_key


def group_key(verdict: Verdict, reproduced: dict, claims: tuple[str, ...] = ()) -> tuple[str, ...]:
    """The root cause ``verdict`` (of a test of ``claims``) belongs to: its ``cause_key``, and its call's form where
    the direct probes showed that line raising for another behaviour in that form (bpe_kata/verdict/crash_probes.py
    ``split_by_form``), except in a test of the probed behaviour alone (exhaustion's worked cases: no pair is left
    there, whatever the form)."""
    key = cause_key(verdict)
    probed = reproduced.get(key)
    if probed is not None and probed.claim and set(claims) == {probed.claim}:
        return key
    try:
        keywords = json.loads(verdict.keywords) if verdict.keywords else {}
    except ValueError:
        return key
    formed = key + (call_form(verdict.call, keywords if isinstance(keywords, dict) else {}),)
    return formed if formed in reproduced else key


def level_rank(level: str | None) -> int:
    return ALL_LEVEL_NAMES.index(level) if level in ALL_LEVEL_NAMES else len(ALL_LEVEL_NAMES)


def _likely_claim(tests: list[str], by_test: dict, per_claim: dict[str, dict[str, list[str]]],
                  call: str = "", taken: set[str] = frozenset()) -> str | None:
    """The claim this error most likely breaks: the one it explains best, scored as the share of the claim's
    run tests it explains times their number (a share of one from a claim's single test is weaker evidence
    than a share of one over four tests); ties go to the lowest level, then to ledger order. A test that
    raised counts whole for a claim it alone checks and is shared among the claims it lists (its error
    came before any of their assertions, so it witnesses each only in part); when some claims have a
    test of their own that raised, the likely claim is one of them, and not one resting on another of
    them of an earlier level (spec/claims.toml ``rests_on``): a trainer that crashes once no pair is left
    is blamed on the worked case of exhaustion, not on a chunking claim whose tests train too. Only claims
    about the call that raised (``about_call``): a crash in train while a decode test builds its table
    breaks no decode claim, and when no claim of its tests is about that call, there is none. When a larger
    cause raised in the same call already most likely breaks one of these tests' claims (``taken``), that claim
    is this one's too: one bug whose errors fell into two causes (another exception type or wording for one
    example Hypothesis drew) keeps one likely claim, whichever examples were drawn."""
    ledger_order = {cid: i for i, cid in enumerate(load_claims())}
    explained: dict[str, float] = defaultdict(float)
    witnessed: set[str] = set()  # claims with a test of their own (no other claim about the call) that raised
    for nodeid in tests:
        candidates = [claim for claim in by_test[nodeid][1] if about_call(claim, call)]
        for claim in candidates:
            explained[claim] += 1 / len(candidates)
        if len(candidates) == 1:
            witnessed.add(candidates[0])
    if not explained:
        return None
    if set(explained) & taken:
        explained = defaultdict(float, {claim: n for claim, n in explained.items() if claim in taken})
    elif witnessed:  # of the claims whose own tests raised, the earlier level's prerequisites: train's before
        # a chunking claim's (within one level the score decides: the ledger cannot tell which sibling broke)
        roots = {claim for claim in witnessed
                 if not _rests_on_any(claim, {o for o in witnessed if _level_rank_of(o) < _level_rank_of(claim)})}
        explained = defaultdict(float, {claim: n for claim, n in explained.items() if claim in roots})

    def rank(claim: str) -> tuple:
        r = per_claim.get(claim, {})
        run = sum(len(r.get(o, [])) for o in (Outcome.PASSED, Outcome.FAILED, *ClaimOutcome))
        level = load_claims()[claim].level if claim in ledger_order else None
        return (-explained[claim] ** 2 / max(run, 1), level_rank(level), ledger_order.get(claim, len(ledger_order)))

    return min(explained, key=rank)


def _level_rank_of(cid: str) -> int:
    return level_rank(claim_level(cid))


def _rests_on_any(cid: str, others: set[str]) -> bool:
    """Whether ``cid`` rests, directly or through others, on one of ``others`` (spec/claims.toml)."""
    graph = prerequisites()
    seen, todo = set(), list(graph.get(cid, ()))
    while todo:
        other = todo.pop()
        if other in others:
            return True
        if other not in seen:
            seen.add(other)
            todo.extend(graph.get(other, ()))
    return False


def claim_level(cid: str) -> str | None:
    claim = load_claims().get(cid)
    return claim.level if claim else None
