"""Known-wrong: among pairs with the top count, train takes the smallest, not the first counted."""

from __future__ import annotations

from spec.oracle import core
from spec.oracle.core import build_vocab, decode, encode, get_stats, merge  # noqa: F401
from tests.implementations._rehome import rehome

MISTAKE_CLAIMS: tuple[str, ...] = ("train.tie-first-counted",)


def most_frequent(stats: dict[tuple[int, int], int]) -> tuple[int, int]:
    """``min`` over the pairs that share the highest count."""
    top = max(stats.values())
    return min(pair for pair, count in stats.items() if count == top)


train = rehome(core.train, globals())
