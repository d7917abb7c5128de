"""Known-wrong: among pairs with the top count, train takes the last counted (a ``>=`` where ``>`` was meant)."""

from __future__ import annotations

from spec.oracle import core
from spec.oracle.core import build_vocab, decode, encode, get_stats, merge  # noqa: F401
from tests.implementations._rehome import rehome

MISTAKE_CLAIMS: tuple[str, ...] = ("train.tie-first-counted",)


def most_frequent(stats: dict[tuple[int, int], int]) -> tuple[int, int]:
    """A hand-written arg-max loop that lets a later equal count replace the best."""
    best, top = None, 0
    for pair, count in stats.items():
        if count >= top:
            best, top = pair, count
    return best


train = rehome(core.train, globals())
