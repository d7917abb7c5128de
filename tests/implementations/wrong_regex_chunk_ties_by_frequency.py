"""Known-wrong: the chunk trainer counts pairs visiting distinct chunks in Counter.most_common() order,
so ties follow chunk frequency, not the text."""

from __future__ import annotations

from collections import Counter

from spec.oracle import core
from spec.oracle.chunks import covering_chunks
from spec.oracle.core import decode, get_stats, merge  # noqa: F401
from spec.oracle.persist import load, save  # noqa: F401
from spec.oracle.special import build_vocab, encode  # noqa: F401
from spec.oracle.stream import StreamDecoder  # noqa: F401

MISTAKE_CLAIMS: tuple[str, ...] = ("regex.chunk-tie-first-counted",)


def train(text, vocab_size, *, pattern=None):
    """Distinct chunks weighted by their counts (right), visited most frequent first (the mistake)."""
    if pattern is None:
        return core.train(text, vocab_size)
    if vocab_size < 256:
        raise ValueError(f"vocab_size must be at least 256, got {vocab_size}")
    chunks = [(list(chunk.encode("utf-8")), n)
              for chunk, n in Counter(covering_chunks(text, pattern)).most_common()]
    merges = {}
    for idx in range(256, vocab_size):
        stats = {}
        for ids, n in chunks:
            for pair, count in get_stats(ids).items():
                stats[pair] = stats.get(pair, 0) + count * n
        if not stats:
            break
        best = max(stats, key=stats.get)
        chunks = [(merge(ids, best, idx), n) for ids, n in chunks]
        merges[best] = idx
    return merges
