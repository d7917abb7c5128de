"""Known-wrong (probe): merge finds every occurrence of the pair, then takes them in a fixed scrambled order
(as iterating a hash set of positions would), skipping any that overlaps one taken: neither left to right
nor right to left (b a a a -> b a Z), which must still break merge.left-to-right and nothing else."""

from __future__ import annotations

from tests.implementations._rehome import oracle_with

MISTAKE_CLAIMS: tuple[str, ...] = ("merge.left-to-right",)


def merge(ids: list[int], pair: tuple[int, int], idx: int) -> list[int]:
    """Occurrences taken in the order of ``(5 * position) % 7``, each unless it overlaps one already taken."""
    found = [i for i in range(len(ids) - 1) if ids[i] == pair[0] and ids[i + 1] == pair[1]]
    taken: set[int] = set()
    for i in sorted(found, key=lambda position: ((5 * position) % 7, position)):
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
