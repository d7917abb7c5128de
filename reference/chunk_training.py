"""Training with a split pattern: pairs are counted only inside chunks, each distinct chunk once.

The text is cut into chunks (``splitting.split``) and every distinct chunk is kept once,
weighted by how many times it occurs. The distinct chunks sit end to end in one linked
list, in order of first appearance, with no link across a chunk boundary, so no pair can
span two chunks. A pair's count is the sum of the weights of its occurrences: what
counting every chunk occurrence of the full chunk list would give.

Ties follow the textbook over the full chunk list too. Every copy of a chunk changes the
same way, so a pair's first occurrence in that list lies in the earliest-appearing
distinct chunk that holds it, at its first position there; positions in the end-to-end
list order pairs exactly by (that chunk's first appearance, position inside it). The tie
rule itself comes from ``tie_rules.heap_key``, shared with the whole-text trainer.

The bookkeeping is the whole-text trainer's (see ``training``), with weights: a merge
touches only its own occurrences and their neighbours, never recounting.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from heapq import heapify
from itertools import islice, repeat

from .pair_ranking import _NONE, LazyPairRanking, learn_merges
from .scalar_text import original_position, scalar_text
from .splitting import UncoveredText, split
from .tie_rules import DEFAULT_TIE_RULE

__all__ = ["train_chunks", "train_documents"]


Pair = tuple[int, int]


def train_chunks(text: str, vocab_size: int, pattern: str,
                 tie_rule: str = DEFAULT_TIE_RULE) -> dict[Pair, int]:
    """Learn ``vocab_size - 256`` merges from the chunks of `text`, in training order.

    The caller has checked `text`, `vocab_size` and `tie_rule`. Stops early when no chunk has a pair left.
    Lone surrogates become U+FFFD first; the chunks must cover the text (``splitting``).
    """
    return train_documents([(0, text)], vocab_size, pattern, tie_rule)


def train_documents(documents: list[tuple[int, str]], vocab_size: int, pattern: str | None,
                    tie_rule: str = DEFAULT_TIE_RULE) -> dict[Pair, int]:
    """Learn merges from several texts, no pair counted across two: each ``(start, text)`` is cut into chunks
    (without a pattern, it is one chunk), an uncovered character named by its position plus ``start``."""
    chunk_counts: Counter[str] = Counter()
    for start, text in documents:
        try:
            chunk_counts.update([scalar_text(text)] if pattern is None else split(pattern, scalar_text(text)))
        except UncoveredText as gap:
            raise gap.shifted(start + original_position(text, gap.position) - gap.position) from None
    return learn_merges(lambda key: _ChunkPairIndex(chunk_counts, key), vocab_size, tie_rule)


class _ChunkPairIndex(LazyPairRanking):
    """The distinct chunks as one linked list, with weighted pair counts.

    - ``vals/prev/next``: the nodes; ``prev``/``next`` are _NONE at a chunk's ends.
    - ``weight[pos]``: how many times the chunk holding node ``pos`` occurs in the text.
    - ``count[pair]``: the summed weight of the pair's current occurrences.
    - ``first[pair]``: its first current position; ``places[pair]``: the sorted positions
      where it has occurred, some perhaps gone (checked against the list before use).
    - ``ranking``: a lazy heap of ``(key, count, first, pair)``; an entry is believed only
      while it matches ``count`` and ``first``.
    """

    def __init__(self, chunk_counts: Counter[str], key: Callable[[int, int, Pair], object]) -> None:
        self.key = key
        vals: list[int] = []
        weight: list[int] = []
        prev: list[int] = []
        nxt: list[int] = []
        places: dict[Pair, list[int]] = {}
        add_place = places.setdefault
        for chunk, times in chunk_counts.items():
            data = chunk.encode("utf-8")
            if len(data) < 2:
                continue  # no pair, now or ever
            # One int object per position, shared by prev, next and places (see training).
            positions = list(range(len(vals), len(vals) + len(data)))
            vals.extend(data)
            weight.extend(repeat(times, len(data)))
            prev.append(_NONE)
            prev.extend(islice(positions, len(data) - 1))
            nxt.extend(islice(positions, 1, None))
            nxt.append(_NONE)
            for pos, pair in zip(positions, zip(data, data[1:])):
                add_place(pair, []).append(pos)
        self.vals, self.weight, self.prev, self.next = vals, weight, prev, nxt
        self.places = places
        self.count = {pair: sum(weight[p] for p in found) for pair, found in places.items()}
        self.first = {pair: found[0] for pair, found in places.items()}
        self.ranking = [(key(self.count[pair], found[0], pair), self.count[pair], found[0], pair)
                        for pair, found in places.items()]
        heapify(self.ranking)

    def apply(self, pair: Pair, idx: int) -> None:
        """Replace every occurrence of `pair` by `idx`, left to right, non-overlapping.

        Each replacement of ``x a b y`` by ``x z y`` in a chunk of weight ``w`` takes ``w``
        from ``(x, a)`` and ``(b, y)`` and gives ``w`` to ``(x, z)`` and ``(z, y)``.
        """
        left, right = pair
        vals, prv, nxt, weight = self.vals, self.prev, self.next, self.weight
        places, first = self.places, self.first
        positions = places.pop(pair)
        del self.count[pair], first[pair]
        lost: dict[Pair, int] = {}  # weight retired per pair, settled at the end
        gained: dict[Pair, int] = {}  # weight of the pairs born in this step
        for pos in positions:
            after = nxt[pos]
            # Stale, or consumed by the previous (overlapping) replacement in this step.
            if after == _NONE or vals[pos] != left or vals[after] != right:
                continue
            w = weight[pos]
            before = prv[pos]
            beyond = nxt[after]
            if before != _NONE:
                gone = (vals[before], left)
                lost[gone] = lost.get(gone, 0) + w
                self._born((vals[before], idx), before, w, gained)
            if beyond != _NONE:
                gone = (right, vals[beyond])
                lost[gone] = lost.get(gone, 0) + w
                self._born((idx, vals[beyond]), pos, w, gained)
                prv[beyond] = pos
            vals[pos] = idx
            nxt[pos] = beyond
            nxt[after] = _NONE
        for new, weight_in in gained.items():
            self._settle(new, weight_in - lost.pop(new, 0))
        for gone, retired in lost.items():
            if gone != pair:
                self._settle(gone, self.count[gone] - retired)

    def _born(self, new: Pair, pos: int, w: int, gained: dict[Pair, int]) -> None:
        """Record an occurrence of a pair holding the new id (all of them arise in one step)."""
        found = self.places.get(new)
        if found is None:
            self.places[new] = [pos]
            self.first[new] = pos
            gained[new] = w
        else:
            found.append(pos)
            gained[new] += w
