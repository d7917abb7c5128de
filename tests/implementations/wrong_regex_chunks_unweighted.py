"""Known-wrong: train counts each distinct chunk once but forgets to weight it by how often it occurs."""

from __future__ import annotations

from spec.oracle import core
from spec.oracle.chunks import covering_chunks
from spec.oracle.core import decode, get_stats, merge  # noqa: F401
from spec.oracle.persist import load, save  # noqa: F401
from spec.oracle.special import build_vocab, encode  # noqa: F401
from spec.oracle.stream import StreamDecoder  # noqa: F401

MISTAKE_CLAIMS: tuple[str, ...] = ("regex.chunk-frequency",)


def train(text, vocab_size, *, pattern=None):
    """Each distinct chunk once, in first-seen order, as if every chunk occurred once."""
    if pattern is None:
        return core.train(text, vocab_size)
    pieces = [list(chunk.encode("utf-8")) for chunk in dict.fromkeys(covering_chunks(text, pattern))]
    merges = {}
    for idx in range(256, vocab_size):
        stats = {}
        for ids in pieces:
            for pair, n in get_stats(ids).items():
                stats[pair] = stats.get(pair, 0) + n
        if not stats:
            break
        best = max(stats, key=stats.get)
        pieces = [merge(ids, best, idx) for ids in pieces]
        merges[best] = idx
    return merges
