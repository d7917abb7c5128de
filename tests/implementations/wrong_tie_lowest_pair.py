"""Known-wrong: among pairs with the top count, train takes the smallest, not the first counted."""

# mypy: disable-error-code="no-redef"
from __future__ import annotations

from spec.oracle.core import build_vocab, decode, encode, get_stats, merge, utf8  # noqa: F401

MISTAKE_CLAIMS: tuple[str, ...] = ("train.tie-first-counted", "train.wikipedia-walkthrough")


def train(text: str, vocab_size: int) -> dict[tuple[int, int], int]:
    """Textbook training with ``min`` over the pairs that share the highest count."""
    if vocab_size < 256:
        raise ValueError(f"vocab_size must be at least 256, got {vocab_size}")
    ids = list(utf8(text))
    merges: dict[tuple[int, int], int] = {}
    for idx in range(256, vocab_size):
        stats = get_stats(ids)
        if not stats:
            break
        top = max(stats.values())
        best = min(pair for pair, count in stats.items() if count == top)
        ids = merge(ids, best, idx)
        merges[best] = idx
    return merges
