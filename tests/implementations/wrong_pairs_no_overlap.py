"""Known-wrong: an occurrence overlapping the previous one of its pair is skipped (aaa: once)."""

from __future__ import annotations

from spec.oracle import core
from spec.oracle.core import build_vocab, decode, merge  # noqa: F401
from tests.implementations._rehome import rehome

MISTAKE_CLAIMS: tuple[str, ...] = ("pairs.adjacent-overlapping",)


def get_stats(ids: list[int]) -> dict[tuple[int, int], int]:
    """Count only the occurrences merge could replace, reasoning 'overlaps cannot both merge'."""
    counts: dict[tuple[int, int], int] = {}
    last_start: dict[tuple[int, int], int] = {}
    for i, pair in enumerate(zip(ids, ids[1:])):
        if last_start.get(pair) == i - 1:
            continue  # shares an element with the occurrence just counted
        counts[pair] = counts.get(pair, 0) + 1
        last_start[pair] = i
    return counts


train = rehome(core.train, globals())
encode = rehome(core.encode, globals())
