"""Known-wrong: train never checks vocab_size, so a size below 256 quietly gives no merges."""

# mypy: disable-error-code="no-redef"
from __future__ import annotations

from spec.oracle.core import build_vocab, decode, encode, get_stats, merge, utf8  # noqa: F401

MISTAKE_CLAIMS: tuple[str, ...] = ("train.min-vocab",)


def train(text: str, vocab_size: int) -> dict[tuple[int, int], int]:
    """Textbook training minus the ValueError; ``range(256, 255)`` is simply empty."""
    ids = list(utf8(text))
    merges: dict[tuple[int, int], int] = {}
    for idx in range(256, vocab_size):
        stats = get_stats(ids)
        if not stats:
            break
        best = max(stats, key=lambda pair: stats[pair])
        ids = merge(ids, best, idx)
        merges[best] = idx
    return merges
