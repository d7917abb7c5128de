"""Known-wrong (probe): merge writes the new id but steps one position instead of two, so the pair's right
symbol is kept as well (a a b -> Z a b): every level that merges shows it, and only merge claims are blamed."""

# mypy: disable-error-code="no-redef"
from __future__ import annotations

from tests.implementations._rehome import oracle_with

MISTAKE_CLAIMS: tuple[str, ...] = ("merge.example-99", "merge.the-tree", "merge.left-to-right", "merge.end-guard")


def merge(ids: list[int], pair: tuple[int, int], idx: int) -> list[int]:
    """The oracle's loop with ``i += 1`` after a match, where ``i += 2`` was meant."""
    out: list[int] = []
    i = 0
    while i < len(ids):
        if i + 1 < len(ids) and ids[i] == pair[0] and ids[i + 1] == pair[1]:
            out.append(idx)
            i += 1
        else:
            out.append(ids[i])
            i += 1
    return out


globals().update(oracle_with(globals()))
