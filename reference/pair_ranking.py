"""What both incremental trainers share: a lazy ranking of pairs over a linked list.

Each trainer keeps ``vals/prev/next`` (a linked list of token ids), ``places[pair]``
(sorted positions where the pair has occurred, checked lazily), ``count``, ``first`` and a
heap ``ranking`` of ``(key, count, first position, pair)``. An entry is believed only while
it matches ``count`` and ``first``; the others are dropped when they reach the top. This
class holds the parts that do not depend on how counts are weighted.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable
from heapq import heappop, heappush

from .core import BASE_VOCAB_SIZE
from .tie_rules import heap_key

_NONE = -1  # "no neighbour" in the prev/next arrays; also marks a removed node's next.

Pair = tuple[int, int]


class LazyPairRanking:
    """Base of the trainers' pair indexes; subclasses build the list and apply merges."""

    vals: list[int]
    next: list[int]
    places: dict[Pair, list[int]]
    count: dict[Pair, int]
    first: dict[Pair, int]
    ranking: list[tuple[object, int, int, Pair]]
    key: Callable[[int, int, Pair], object]

    def best_pair(self) -> Pair | None:
        """The pair the textbook would merge next, or None when no pair is left."""
        ranking, count, first = self.ranking, self.count, self.first
        while ranking:
            _, top, pos, pair = ranking[0]
            if count.get(pair) == top and first[pair] == pos:
                return pair
            heappop(ranking)
        return None

    def _settle(self, pair: Pair, remaining: int) -> None:
        """Store a pair's new count and first position, and rank it again (or drop it)."""
        if not remaining:
            # A pair born and retired within one step never had a count.
            self.count.pop(pair, None)
            del self.first[pair], self.places[pair]
            return
        self.count[pair] = remaining
        pos = self.first[pair]
        if not self._occurs_at(pos, pair):
            pos = self.first[pair] = self._next_occurrence(pair, pos + 1)
        heappush(self.ranking, (self.key(remaining, pos, pair), remaining, pos, pair))

    def _occurs_at(self, pos: int, pair: Pair) -> bool:
        """Whether `pair` currently starts at node `pos`."""
        after = self.next[pos]
        return after != _NONE and self.vals[pos] == pair[0] and self.vals[after] == pair[1]

    def _next_occurrence(self, pair: Pair, start: int) -> int:
        """The first current occurrence at or after `start` (the caller knows one exists)."""
        places = self.places[pair]
        i = bisect_left(places, start)
        while not self._occurs_at(places[i], pair):
            i += 1
        return places[i]


def learn_merges(make_index: Callable[[Callable[[int, int, Pair], object]], LazyPairRanking],
                 vocab_size: int, tie_rule: str) -> dict[Pair, int]:
    """The training loop both trainers share: take the best pair, record it, apply it, repeat.

    ``make_index`` builds the trainer's pair index from the tie rule's heap key. The vocab of
    bytes grows as merges are learned, since the bytes-greatest rule ranks by it.
    """
    vocab = {i: bytes([i]) for i in range(BASE_VOCAB_SIZE)}
    state = make_index(heap_key(tie_rule, vocab))
    merges: dict[Pair, int] = {}
    for idx in range(BASE_VOCAB_SIZE, vocab_size):
        pair = state.best_pair()
        if pair is None:
            break
        vocab[idx] = vocab[pair[0]] + vocab[pair[1]]
        state.apply(pair, idx)
        merges[pair] = idx
    return merges
