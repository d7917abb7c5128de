"""Known-wrong: train keeps the counts in an indexed max-heap whose delete only sifts down.

Deleting a pair that no longer occurs moves the heap's last entry into its slot and sifts it
down; when that entry is larger than its new parent it should go up, so the heap's top can be
a count of 4 while a pair of count 5 sits lower. Right on most small texts: it shows only
after enough deletes in a heap of many near-tied counts, then a pair that is not the most
frequent is merged (issue 37, kind 6: a port with this heap passed every level).
"""

from __future__ import annotations

from spec.oracle.core import build_vocab, decode, encode, get_stats, merge, utf8  # noqa: F401

MISTAKE_CLAIMS: tuple[str, ...] = ("train.most-frequent",)

Pair = tuple[int, int]


class _CountHeap:
    """A max-heap of pairs by count, with each pair's slot indexed so its count can change."""

    def __init__(self) -> None:
        self.pairs: list[Pair] = []
        self.count: dict[Pair, int] = {}
        self.slot: dict[Pair, int] = {}

    def set(self, pair: Pair, count: int) -> None:
        if pair not in self.slot:
            self.pairs.append(pair)
            self.slot[pair] = len(self.pairs) - 1
            self.count[pair] = count
            self._up(self.slot[pair])
            return
        old, self.count[pair] = self.count[pair], count
        (self._up if count > old else self._down)(self.slot[pair])

    def delete(self, pair: Pair) -> None:
        at, last = self.slot.pop(pair), self.pairs.pop()
        del self.count[pair]
        if last != pair:
            self.pairs[at] = last
            self.slot[last] = at
            self._down(at)  # the mistake: the entry moved here may be larger than its parent

    def top(self) -> int:
        return self.count[self.pairs[0]]

    def _swap(self, i: int, j: int) -> None:
        self.pairs[i], self.pairs[j] = self.pairs[j], self.pairs[i]
        self.slot[self.pairs[i]], self.slot[self.pairs[j]] = i, j

    def _up(self, i: int) -> None:
        while i and self.count[self.pairs[i]] > self.count[self.pairs[(i - 1) // 2]]:
            self._swap(i, (i - 1) // 2)
            i = (i - 1) // 2

    def _down(self, i: int) -> None:
        while True:
            largest = i
            for child in (2 * i + 1, 2 * i + 2):
                if child < len(self.pairs) and self.count[self.pairs[child]] > self.count[self.pairs[largest]]:
                    largest = child
            if largest == i:
                return
            self._swap(i, largest)
            i = largest


def train(text: str, vocab_size: int) -> dict[Pair, int]:
    """Recount each step, tell the heap what changed, merge the first-counted pair of the heap's top count."""
    if vocab_size < 256:
        raise ValueError(f"vocab_size must be at least 256, got {vocab_size}")
    ids = list(utf8(text))
    heap = _CountHeap()
    merges: dict[Pair, int] = {}
    for idx in range(256, vocab_size):
        stats = get_stats(ids)
        for gone in [pair for pair in heap.slot if pair not in stats]:
            heap.delete(gone)
        for pair, count in stats.items():
            if heap.count.get(pair) != count:
                heap.set(pair, count)
        if not stats:
            break
        top = heap.top()
        best = next(pair for pair, count in stats.items() if count == top)
        ids = merge(ids, best, idx)
        merges[best] = idx
    return merges
