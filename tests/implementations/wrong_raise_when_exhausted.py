"""Known-wrong: train has no guard for running out of pairs, so max() of nothing raises."""

from __future__ import annotations

from spec.oracle.core import build_vocab, decode, encode, get_stats, merge, utf8  # noqa: F401

MISTAKE_CLAIMS: tuple[str, ...] = ("train.exhausted",)


def train(text: str, vocab_size: int) -> dict[tuple[int, int], int]:
    """Textbook training without ``if not stats: break``."""
    if vocab_size < 256:
        raise ValueError(f"vocab_size must be at least 256, got {vocab_size}")
    ids = list(utf8(text))
    merges: dict[tuple[int, int], int] = {}
    for idx in range(256, vocab_size):
        stats = get_stats(ids)
        # max() of an empty dict raises ValueError once a single id is left
        best = max(stats, key=lambda pair: stats[pair])
        ids = merge(ids, best, idx)
        merges[best] = idx
    return merges
