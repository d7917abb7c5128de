"""The property checker: is a merge table *a* valid BPE training of a text, whatever rule broke its ties?

Claims that are not about ties must hold for every documented tie rule (first-counted,
lowest-pair, CS336's bytes-greatest). Instead of one expected table, these checks replay
the implementation's table on the text and hold each step to the definition: the id is the
next one, the pair is *a* most frequent pair of the current sequence (chunks counted
separately, with a pattern), and training stopped only when asked to or when no pair was
left. Each returns what is wrong, in words, or None. Slow and obvious, like the rest of the oracle.
"""

from __future__ import annotations

from spec.oracle import split
from spec.oracle.chunks import chunk_bytes
from spec.oracle.core import merge as textbook_merge
from spec.oracle.core import utf8

Pair = tuple[int, int]
Merges = list[tuple[Pair, int]]


def ids_wrong(merges: Merges, vocab_size: int) -> str | None:
    """Ids not 256, 257, ... in table order, or more merges than ``vocab_size`` allows."""
    ids = [idx for _, idx in merges]
    if ids != list(range(256, 256 + len(ids))):
        return f"ids in table order are {ids[:12]}{'...' if len(ids) > 12 else ''}: they must run 256, 257, ..."
    if len(ids) > max(vocab_size - 256, 0):
        return f"{len(ids)} merges for vocab_size {vocab_size}: at most {max(vocab_size - 256, 0)}"
    return None


def not_greedy(text: str, merges: Merges, pattern: str | None = None, merge=textbook_merge) -> str | None:
    """The first merge, replayed in table order, whose pair was not among the most frequent then.

    ``merge`` replays each step (spec.mistakes passes a wrong one, to recognise a mistake).
    """
    bad = _first_bad_merge(text, merges, pattern, merge)
    return bad[1] if bad is not None else None


def merged_when_exhausted(text: str, merges: Merges, pattern: str | None = None) -> str | None:
    """The table's first wrong merge is one made once no adjacent pair was left (train.exhausted's observable:
    a trainer that goes on "merging" a pair of count 0), else None."""
    bad = _first_bad_merge(text, merges, pattern, textbook_merge)
    return bad[1] if bad is not None and bad[0] == "exhausted" else None


def first_bad_step(text: str | list[str], merges: Merges, pattern: str | None = None) -> int | None:
    """The index of the first merge, replayed in table order, that was not greedy, or None."""
    bad = _first_bad_merge(text, merges, pattern, textbook_merge)
    return bad[2] if bad is not None else None


def _first_bad_merge(text: str, merges: Merges, pattern: str | None, merge) -> tuple[str, str, int] | None:
    """("exhausted" or "not-most-frequent", in words, its step) for the first merge that was not greedy, or None."""
    pieces = _pieces(text, pattern)
    for step, (pair, idx) in enumerate(merges):
        stats = _counts(pieces)
        if not stats:
            return "exhausted", f"merge {step} {pair}→{idx} was made after no adjacent pair was left", step
        best = max(stats.values())
        if stats.get(pair, 0) != best:
            leader = next(p for p, n in stats.items() if n == best)
            return "not-most-frequent", (
                f"merge {step} {pair}→{idx}: replayed in table order, that pair occurs {stats.get(pair, 0)} "
                f"time(s) at that step, but {leader} occurs {best} times"), step
        pieces = [merge(ids, pair, idx) for ids in pieces]
    return None


def stopped_early(text: str, merges: Merges, vocab_size: int, pattern: str | None = None) -> str | None:
    """Fewer merges than asked for while some adjacent pair was still left."""
    if len(merges) >= vocab_size - 256:
        return None
    pieces = _pieces(text, pattern)
    for pair, idx in merges:
        pieces = [textbook_merge(ids, pair, idx) for ids in pieces]
    stats = _counts(pieces)
    if not stats:
        return None
    best = max(stats, key=stats.get)
    return (f"training stopped after {len(merges)} of {vocab_size - 256} merges, "
            f"while {best} still occurred {stats[best]} time(s)")


def pairs_left(text: str, merges: Merges, pattern: str | None = None) -> set[Pair]:
    """The adjacent pairs still in the text once ``merges`` are replayed in table order."""
    pieces = _pieces(text, pattern)
    for pair, idx in merges:
        pieces = [textbook_merge(ids, pair, idx) for ids in pieces]
    return set(_counts(pieces))


def violation(text: str, merges: Merges, vocab_size: int, pattern: str | None = None) -> str | None:
    """The first way ``merges`` is not greedy BPE training of ``text`` under some tie rule, or None."""
    return (ids_wrong(merges, vocab_size) or not_greedy(text, merges, pattern)
            or stopped_early(text, merges, vocab_size, pattern))


def merges_that_cannot_exhaust(text: str, vocab_size: int) -> int:
    """``vocab_size`` lowered so that training ``text`` (no pattern) cannot run out of pairs.

    A merge at most halves the sequence, so after k - 1 merges at least ``n / 2**(k-1)`` ids
    are left: with ``2**k <= n`` the k-th merge always has a pair, whatever the tie rule. For
    checks whose claim is not about running out of pairs (train.exhausted has its own tests).
    """
    n = max((len(piece) for piece in _pieces(text, None)), default=0)  # the longest chunk keeps a pair
    return min(vocab_size, 256 + max(0, n.bit_length() - 1))


def _pieces(text: str | list[str], pattern: str | None) -> list[list[int]]:
    """The bytes training starts from: of the repaired text (lone surrogates as U+FFFD), chunk by chunk. A list
    of texts is trained on as separate documents (no pair spans two), as a trainer that cuts at a special does."""
    if isinstance(text, list):
        return [piece for document in text for piece in _pieces(document, pattern)]
    pattern = split.resolve(pattern)  # none given: the split in force (spec/oracle/split.py)
    return [list(utf8(text))] if pattern is None else chunk_bytes(text, pattern)


def _counts(pieces: list[list[int]]) -> dict[Pair, int]:
    counts: dict[Pair, int] = {}
    for ids in pieces:
        for pair in zip(ids, ids[1:]):
            counts[pair] = counts.get(pair, 0) + 1
    return counts
