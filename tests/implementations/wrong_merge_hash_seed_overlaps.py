"""Known-wrong (probe): merge resolves overlapping occurrences in the order of a set of strings, which
Python's hash randomisation changes from process to process: within one process it is a fixed wrong
order (merge.left-to-right), and fresh processes under other PYTHONHASHSEED values train other tables
(train.deterministic)."""

from __future__ import annotations

from tests.implementations._rehome import oracle_with

MISTAKE_CLAIMS: tuple[str, ...] = ("merge.left-to-right", "train.deterministic")


def merge(ids: list[int], pair: tuple[int, int], idx: int) -> list[int]:
    """Occurrences kept as a set of strings, taken in the set's (hash) order unless one overlaps a taken one."""
    found = {str(i) for i in range(len(ids) - 1) if ids[i] == pair[0] and ids[i + 1] == pair[1]}
    taken: set[int] = set()
    for key in found:
        i = int(key)
        if i - 1 not in taken and i + 1 not in taken:
            taken.add(i)
    out: list[int] = []
    i = 0
    while i < len(ids):
        if i in taken:
            out.append(idx)
            i += 2
        else:
            out.append(ids[i])
            i += 1
    return out


globals().update(oracle_with(globals()))
