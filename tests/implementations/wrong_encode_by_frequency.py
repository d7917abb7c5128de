"""Known-wrong: encode merges the known pair most frequent in the text, not the earliest learned."""

from __future__ import annotations

from spec.oracle.core import build_vocab, decode, get_stats, merge, train, utf8  # noqa: F401

MISTAKE_CLAIMS: tuple[str, ...] = ("encode.lowest-rank", "encode.priority-not-longest")


def encode(text: str, merges: dict[tuple[int, int], int]) -> list[int]:
    """Replay training on the new text: pick the top-count pair among those in the table."""
    ids = list(utf8(text))
    while len(ids) >= 2:
        stats = get_stats(ids)
        known = {pair: count for pair, count in stats.items() if pair in merges}
        if not known:
            break
        pair = max(known, key=lambda p: known[p])
        ids = merge(ids, pair, merges[pair])
    return ids
