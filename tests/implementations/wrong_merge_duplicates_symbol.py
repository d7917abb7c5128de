"""Known-wrong (probe): when the pair ends the list, merge writes the new id and copies the pair's right
symbol as well (a b a b -> Z Z b): a symbol is duplicated, so every level that merges shows it, and only
merge claims are blamed."""

from __future__ import annotations

from tests.implementations._rehome import oracle_with

MISTAKE_CLAIMS: tuple[str, ...] = ("merge.the-tree", "merge.left-to-right")


def merge(ids: list[int], pair: tuple[int, int], idx: int) -> list[int]:
    """The oracle's loop, with the tail copied from one position too early after a match at the very end."""
    out: list[int] = []
    i = 0
    while i < len(ids):
        if i + 1 < len(ids) and ids[i] == pair[0] and ids[i + 1] == pair[1]:
            out.append(idx)
            if i + 2 == len(ids):
                out.append(ids[i + 1])  # meant: the rest after the pair (nothing)
            i += 2
        else:
            out.append(ids[i])
            i += 1
    return out


globals().update(oracle_with(globals()))
