"""Known-wrong: encode merges the leftmost adjacent pair the table has (first fit), not the pair of lowest
rank: on ``abc`` with (b, c) learned before (a, b) it merges (a, b) (issue 37, kind 6)."""

from __future__ import annotations

from spec.oracle.core import build_vocab, decode, get_stats, merge, train, utf8  # noqa: F401

MISTAKE_CLAIMS: tuple[str, ...] = ("encode.lowest-rank", "encode.priority-not-longest")


def encode(text: str, merges: dict[tuple[int, int], int]) -> list[int]:
    """Scan from the left; merge the first pair present in the table at all its occurrences; repeat."""
    ids = list(utf8(text))
    while True:
        pair = next((pair for pair in zip(ids, ids[1:]) if pair in merges), None)
        if pair is None:
            return ids
        ids = merge(ids, pair, merges[pair])
