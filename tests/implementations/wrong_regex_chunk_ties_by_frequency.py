"""Known-wrong: the chunk trainer counts pairs visiting distinct chunks in Counter.most_common() order, so ties follow chunk frequency, not the text."""

from __future__ import annotations

from collections import Counter

from tests.implementations import textbook_production
from tests.implementations.textbook_production import *  # noqa: F403

MISTAKE_CLAIMS: tuple[str, ...] = ("regex.chunk-tie-first-counted",)


def train(text, vocab_size, *, pattern=None):
    """Distinct chunks weighted by their counts (right), visited most frequent first (the mistake)."""
    if pattern is None:
        return textbook_production.train(text, vocab_size)
    if vocab_size < 256:
        raise ValueError(f"vocab_size must be at least 256, got {vocab_size}")
    chunks = [(list(chunk.encode("utf-8")), n)
              for chunk, n in Counter(textbook_production.chunks_of(text, pattern)).most_common()]
    merges = {}
    for idx in range(256, vocab_size):
        stats = {}
        for ids, n in chunks:
            for pair, count in get_stats(ids).items():  # noqa: F405
                stats[pair] = stats.get(pair, 0) + count * n
        if not stats:
            break
        best = max(stats, key=stats.get)
        chunks = [(merge(ids, best, idx), n) for ids, n in chunks]  # noqa: F405
        merges[best] = idx
    return merges
