"""Known-wrong (probe): get_stats counts right but returns the pairs in a hash map's order (as a HashMap or
std::map port does), and train takes the first of the tied pairs in that order: only pairs.first-seen-order
is blamed (the training claims rest on it)."""

from __future__ import annotations

from spec.oracle import core
from spec.oracle.core import build_vocab, decode, merge  # noqa: F401
from tests.implementations._rehome import rehome

MISTAKE_CLAIMS: tuple[str, ...] = ("pairs.first-seen-order",)


def get_stats(ids: list[int]) -> dict[tuple[int, int], int]:
    """Right counts; the keys in the order of a hash of the pair, not in the order first seen."""
    counts: dict[tuple[int, int], int] = {}
    for pair in zip(ids, ids[1:]):
        counts[pair] = counts.get(pair, 0) + 1
    return dict(sorted(counts.items(), key=lambda item: ((item[0][0] * 31 + item[0][1]) * 2654435761) % 4093))


train = rehome(core.train, globals())
encode = rehome(core.encode, globals())
