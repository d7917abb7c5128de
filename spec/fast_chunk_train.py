"""The spec's own fast trainer under a split: ``spec.oracle.train(text, size, pattern=..., tie_rule=...)``, fast.

A corpus value stated for the whole text (the Shakespeare-20 table, the Alice curve) is restated for an
implementation that always splits (spec/corpus_values.py): the oracle's value computed with the same pattern
and tie rule. The oracle's own chunked trainer recounts every chunk after each merge, minutes on tiny
Shakespeare; this one counts each distinct chunk once, weighted by its occurrences, and after a merge
rewrites only the chunks that hold the merged pair (the way course trainers do it). It must be exactly the
oracle: tests/test_fast_chunk_train.py compares the two on many small texts, patterns and tie rules.

How it stays the oracle. Merges never cross a chunk, and equal chunks stay equal, so a distinct chunk
stands for all its occurrences. The oracle's count dictionary is built in text order, so among tied pairs
its "first counted" is the one whose first occurrence in the current sequence comes first; the distinct
chunks are kept in the order of their first occurrence, so that is the pair whose first chunk is earliest,
then leftmost in that chunk. The tie rule then chooses among the tied pairs in that order
(``spec.oracle.ties.choose_tie``, the oracle's own choice).
"""

from __future__ import annotations

import functools
import heapq
from collections import Counter

from spec.oracle.chunks import chunks, covering_chunks
from spec.oracle.core import check_vocab_size, scalar_text
from spec.oracle.core import merge as _merge  # the oracle's merge, the one every trainer of the spec replays
from spec.oracle.ties import check_tie_rule, choose_tie

Pair = tuple[int, int]


def train(text: str, vocab_size: int, pattern: str, tie_rule: str = "first-counted") -> dict[Pair, int]:
    """Merges in training order, equal to ``spec.oracle.train(text, vocab_size, pattern=..., tie_rule=...)``."""
    check_tie_rule(tie_rule)
    check_vocab_size(vocab_size)
    distinct, weight, _ = distinct_chunks(text, pattern)
    words = [list(chunk.encode("utf-8")) for chunk in distinct]
    counts: dict[Pair, int] = {}
    where: dict[Pair, set[int]] = {}
    for index, word in enumerate(words):
        for pair in zip(word, word[1:]):
            counts[pair] = counts.get(pair, 0) + weight[index]
            where.setdefault(pair, set()).add(index)
    vocab = {i: bytes([i]) for i in range(256)}
    rank = {pair: _rank(tie_rule, pair, words, where, vocab) for pair in counts}
    heap = [(-count, rank[pair], pair) for pair, count in counts.items()]
    heapq.heapify(heap)
    merges: dict[Pair, int] = {}
    for idx in range(256, vocab_size):
        tied = _top(heap, counts, rank)
        if not tied:
            break
        best = tied[0] if len(tied) == 1 else choose_tie(
            tie_rule, sorted(tied, key=lambda pair: _first_at(pair, words, where)), vocab)
        for pair in tied:
            if pair != best:
                heapq.heappush(heap, (-counts[pair], rank[pair], pair))
        changed: set[Pair] = set()
        for index in list(where[best]):
            old, new = words[index], _merge(words[index], best, idx)
            for pair in zip(old, old[1:]):
                counts[pair] -= weight[index]
                changed.add(pair)
            for pair in set(zip(old, old[1:])):
                where[pair].discard(index)
            for pair in zip(new, new[1:]):
                counts[pair] = counts.get(pair, 0) + weight[index]
                where.setdefault(pair, set()).add(index)
                changed.add(pair)
            words[index] = new
        merges[best] = idx
        vocab[idx] = vocab[best[0]] + vocab[best[1]]
        for pair in changed:
            if counts.get(pair, 0) <= 0:
                counts.pop(pair, None)
                where.pop(pair, None)
                rank.pop(pair, None)
            else:
                rank[pair] = _rank(tie_rule, pair, words, where, vocab)
                heapq.heappush(heap, (-counts[pair], rank[pair], pair))
    return merges


@functools.lru_cache(maxsize=4)
def distinct_chunks(text: str, pattern: str) -> tuple[tuple[str, ...], tuple[int, ...], tuple[int, ...]]:
    """The text's distinct chunks in the order of their first occurrence, how often each occurs, and the
    index of each chunk of the text among them (kept for the last few texts: a corpus is cut once a run)."""
    every = chunks_of(text, pattern)
    weights = Counter(every)
    position = {chunk: index for index, chunk in enumerate(weights)}
    return tuple(weights), tuple(weights.values()), tuple(position[chunk] for chunk in every)


def chunks_of(text: str, pattern: str) -> list[str]:
    """``spec.oracle.chunks.covering_chunks``, with one pass of the pattern when it covers the text (matches
    never overlap, so their lengths add up to the text's exactly when every character is covered)."""
    repaired = scalar_text(text)
    found = chunks(repaired, pattern)
    return found if sum(map(len, found)) == len(repaired) else covering_chunks(text, pattern)


class _Descending:
    """A key that sorts its value from the greatest down (the heap pops its least entry first)."""

    __slots__ = ("value",)

    def __init__(self, value: object) -> None:
        self.value = value

    def __lt__(self, other: _Descending) -> bool:
        return self.value > other.value

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Descending) and self.value == other.value


def _rank(tie_rule: str, pair: Pair, words: list[list[int]], where: dict[Pair, set[int]],
          vocab: dict[int, bytes]) -> object:
    """Where ``pair`` stands among pairs of equal count under ``tie_rule``, least first; pairs of equal rank are
    then chosen among by the oracle's own choice (a rule with no rank here ranks every pair alike)."""
    if tie_rule == "first-counted":
        return _first_at(pair, words, where)
    if tie_rule == "lowest-pair":
        return pair
    if tie_rule == "bytes-greatest":
        return _Descending((vocab[pair[0]], vocab[pair[1]]))
    return 0


def _top(heap: list, counts: dict[Pair, int], rank: dict[Pair, object]) -> list[Pair]:
    """Pop the current entries of the highest count and the least rank (stale entries, whose count or rank
    changed since they were pushed, are dropped on the way)."""
    tied: dict[Pair, None] = {}
    while heap:
        negative, where_ranked, pair = heap[0]
        if counts.get(pair) != -negative or rank.get(pair) != where_ranked:
            heapq.heappop(heap)
            continue
        if tied and (negative, where_ranked) != (-counts[next(iter(tied))], rank[next(iter(tied))]):
            break
        heapq.heappop(heap)
        tied[pair] = None
    return list(tied)


def _first_at(pair: Pair, words: list[list[int]], where: dict[Pair, set[int]]) -> tuple[int, int]:
    """Where ``pair`` first occurs in the current sequence: its first chunk, then its place there."""
    index = min(where[pair])
    word = words[index]
    return index, next(i for i in range(len(word) - 1) if (word[i], word[i + 1]) == pair)
