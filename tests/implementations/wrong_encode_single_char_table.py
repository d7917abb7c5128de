"""Known-wrong: encode returns early for an empty table only, so one character with a table raises."""

from __future__ import annotations

from spec.oracle.core import build_vocab, decode, get_stats, merge, train, utf8  # noqa: F401

Pair = tuple[int, int]

MISTAKE_CLAIMS: tuple[str, ...] = ("encode.short-input",)


def encode(text: str, merges: dict[Pair, int]) -> list[int]:
    """minbpe's loop with ``if not merges`` where ``if len(ids) < 2`` was meant: min() of no pair raises."""
    ids = list(utf8(text))
    if not merges:
        return ids
    while True:
        stats = get_stats(ids)
        pair = min(stats, key=lambda p: merges.get(p, float("inf")))  # the mistake: one id has no pair
        if pair not in merges:
            break
        ids = merge(ids, pair, merges[pair])
    return ids
