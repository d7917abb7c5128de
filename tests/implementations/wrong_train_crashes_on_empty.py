"""Known-wrong: train guards running out of pairs only once a single id is left, so an empty text raises."""

from __future__ import annotations

from spec.oracle import core
from spec.oracle.core import build_vocab, decode, get_stats, merge, utf8  # noqa: F401
from tests.implementations._rehome import rehome

Pair = tuple[int, int]

MISTAKE_CLAIMS: tuple[str, ...] = ("train.exhausted",)


def train(text: str, vocab_size: int) -> dict[Pair, int]:
    """``if len(ids) == 1: break`` where ``if not stats: break`` was meant: no id at all takes max() of nothing."""
    if vocab_size < 256:
        raise ValueError(f"vocab_size must be at least 256, got {vocab_size}")
    ids = list(utf8(text))
    merges: dict[Pair, int] = {}
    for idx in range(256, vocab_size):
        if len(ids) == 1:
            break
        stats = get_stats(ids)
        best = max(stats, key=stats.get)  # the mistake: an empty text has no pair, and max() raises
        ids = merge(ids, best, idx)
        merges[best] = idx
    return merges


encode = rehome(core.encode, globals())
