"""The spec's own fast trainer: ``spec.oracle.core.train``, without the recount per merge.

The spec trains the corpus tables whose *encoding* it checks (the bytes-per-token curve)
itself, so that an implementation's slow but correct training does not cost minutes per
run. It must be exactly the oracle: the suite's own tests compare the two on many small
texts (tests/test_fast_train.py). It is not the reference implementation, so mutating the
reference never changes what the spec expects.

How it stays the oracle: each pair keeps the set of positions where it starts in the
current sequence (a linked list over the byte positions), so its count is the size of that
set, overlaps included, as ``get_stats`` counts. Among pairs of equal count the oracle's
``max`` keeps the one counted first, i.e. the one whose first occurrence in the current
sequence is leftmost: the smallest position in its set. A merge rewrites its occurrences
left to right, skipping one that an earlier rewrite consumed, as ``merge`` does.
"""

from __future__ import annotations

import heapq

Pair = tuple[int, int]


def train(text: str, vocab_size: int) -> dict[Pair, int]:
    """Merges in training order, equal to ``spec.oracle.core.train(text, vocab_size)``."""
    symbols = list(text.encode("utf-8"))
    n = len(symbols)
    following = list(range(1, n + 1))  # n: no next symbol
    preceding = list(range(-1, n - 1))  # -1: no previous symbol
    where: dict[Pair, set[int]] = {}
    for i in range(n - 1):
        where.setdefault((symbols[i], symbols[i + 1]), set()).add(i)
    first = {pair: min(starts) for pair, starts in where.items()}
    heap = [(-len(starts), first[pair], pair) for pair, starts in where.items()]
    heapq.heapify(heap)
    merges: dict[Pair, int] = {}

    def pair_at(i: int) -> Pair | None:
        j = following[i] if i >= 0 else n
        return (symbols[i], symbols[j]) if j < n else None

    def drop(i: int) -> Pair | None:
        pair = pair_at(i)
        if pair is not None:
            where[pair].discard(i)
        return pair

    def add(i: int, touched: set[Pair]) -> None:
        pair = pair_at(i)
        if pair is not None:
            where.setdefault(pair, set()).add(i)
            touched.add(pair)

    for idx in range(256, vocab_size):
        best = _most_frequent_first_counted(heap, where, first)
        if best is None:
            break
        merges[best] = idx
        touched: set[Pair] = set()
        for i in sorted(where[best]):
            if i not in where[best]:  # consumed by the rewrite just before (a run like "aaa")
                continue
            j = following[i]
            for k in (preceding[i], i, j):
                pair = drop(k) if k >= 0 else None
                if pair is not None:
                    touched.add(pair)
            symbols[i] = idx
            following[i] = following[j]
            if following[j] < n:
                preceding[following[j]] = i
            add(preceding[i], touched)
            add(i, touched)
        for pair in touched:
            if where.get(pair):
                first[pair] = min(where[pair])
                heapq.heappush(heap, (-len(where[pair]), first[pair], pair))
    return merges


def _most_frequent_first_counted(heap: list[tuple[int, int, Pair]], where: dict[Pair, set[int]],
                                 first: dict[Pair, int]) -> Pair | None:
    """Pop the highest count and, among equal counts, the leftmost first occurrence.

    An entry goes stale when its pair's positions change; a fresh one is pushed then, so the
    entry that still matches its pair's count and first position is the current one.
    """
    while heap:
        negative, position, pair = heapq.heappop(heap)
        if len(where.get(pair, ())) == -negative and first.get(pair) == position:
            return pair
    return None
