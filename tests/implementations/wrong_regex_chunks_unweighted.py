"""Known-wrong: train counts each distinct chunk once but forgets to weight it by how often it occurs."""

from __future__ import annotations

from tests.implementations.textbook_production import *  # noqa: F403
from tests.implementations import textbook_production

MISTAKE_CLAIMS: tuple[str, ...] = ("regex.chunk-frequency",)


def train(text, vocab_size, *, pattern=None):
    """Each distinct chunk once, in first-seen order, as if every chunk occurred once."""
    if pattern is None:
        return textbook_production.train(text, vocab_size)
    pieces = [list(chunk.encode("utf-8")) for chunk in dict.fromkeys(textbook_production.chunks_of(text, pattern))]
    merges = {}
    for idx in range(256, vocab_size):
        stats = {}
        for ids in pieces:
            for pair, n in get_stats(ids).items():  # noqa: F405
                stats[pair] = stats.get(pair, 0) + n
        if not stats:
            break
        best = max(stats, key=stats.get)
        pieces = [merge(ids, best, idx) for ids in pieces]  # noqa: F405
        merges[best] = idx
    return merges
