"""Known-wrong (probe): in a run of one symbol, merge replaces only the run's first pair (a a a a -> Z a a),
as a merge that refuses to start a match right after one would: every level that merges shows it, and only
merge.left-to-right is blamed."""

from __future__ import annotations

from tests.implementations._rehome import oracle_with

MISTAKE_CLAIMS: tuple[str, ...] = ("merge.left-to-right",)


def merge(ids: list[int], pair: tuple[int, int], idx: int) -> list[int]:
    """Left to right, but no match may start right after a match ends (meant for overlaps, wrong for runs)."""
    out: list[int] = []
    i, just_matched = 0, False
    while i < len(ids):
        if not just_matched and i + 1 < len(ids) and ids[i] == pair[0] and ids[i + 1] == pair[1]:
            out.append(idx)
            i, just_matched = i + 2, True
        else:
            out.append(ids[i])
            i, just_matched = i + 1, False
    return out


globals().update(oracle_with(globals()))
