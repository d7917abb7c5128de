"""Known-wrong: new ids start at 257, as if 256 were reserved (e.g. for an end-of-text token)."""

from __future__ import annotations

from spec.oracle.core import build_vocab, decode, encode, get_stats, merge, utf8  # noqa: F401

MISTAKE_CLAIMS: tuple[str, ...] = ("train.ids-from-256",)


def train(text: str, vocab_size: int) -> dict[tuple[int, int], int]:
    """Textbook training whose i-th merge gets id ``256 + i + 1``."""
    if vocab_size < 256:
        raise ValueError(f"vocab_size must be at least 256, got {vocab_size}")
    ids = list(utf8(text))
    merges: dict[tuple[int, int], int] = {}
    for i in range(vocab_size - 256):
        stats = get_stats(ids)
        if not stats:
            break
        best = max(stats, key=lambda pair: stats[pair])
        idx = 256 + i + 1
        ids = merge(ids, best, idx)
        merges[best] = idx
    return merges
