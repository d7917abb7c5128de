"""Known-wrong (probe): when no pair is left, train records one more merge, of a pair that never occurs
(the first id with itself), before it stops: only train.exhausted is blamed."""

from __future__ import annotations

from spec.oracle.ties import choose_tie
from tests.implementations._rehome import oracle_with

MISTAKE_CLAIMS: tuple[str, ...] = ("train.exhausted",)

Pair = tuple[int, int]


def train_pieces(pieces: list[list[int]], vocab_size: int, tie_rule: str) -> dict[Pair, int]:
    """The oracle's training loop, but an exhausted sequence still gets a last (phantom) merge."""
    from spec.oracle.core import merge

    merges: dict[Pair, int] = {}
    vocab = {i: bytes([i]) for i in range(256)}
    for idx in range(256, vocab_size):
        stats: dict[Pair, int] = {}
        for ids in pieces:
            for pair in zip(ids, ids[1:]):
                stats[pair] = stats.get(pair, 0) + 1
        if not stats:
            first = next((ids[0] for ids in pieces if ids), 0)
            if (first, first) not in merges:
                merges[(first, first)] = idx  # the phantom: counted nowhere
            break
        top = max(stats.values())
        best = choose_tie(tie_rule, [pair for pair, count in stats.items() if count == top], vocab)
        pieces = [merge(ids, best, idx) for ids in pieces]
        merges[best] = idx
        vocab[idx] = vocab[best[0]] + vocab[best[1]]
    return merges


globals().update(oracle_with(globals()))
