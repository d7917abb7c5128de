"""A known mistake replayed, so that a failing check can name the claim it saw broken.

Run texts make a merge from the right visible in train and encode results, but so do other
mistakes (a wrong rank, a wrong count). Before blaming merge.left-to-right, a test checks
that the result is exactly what merging from the right gives. Not a definition of anything.
"""

from __future__ import annotations

from spec import oracle

Pair = tuple[int, int]


def merge_from_the_right(ids: list[int], pair: Pair, idx: int) -> list[int]:
    """Replace ``pair`` scanning from the end: [a, a, a] with (a, a) gives [a, Z]."""
    out, i = [], len(ids) - 1
    while i >= 0:
        if i >= 1 and (ids[i - 1], ids[i]) == pair:
            out.append(idx)
            i -= 2
        else:
            out.append(ids[i])
            i -= 1
    return out[::-1]


def encode_merging_from_the_right(text: str, merges: dict[Pair, int]) -> list[int]:
    """The textbook encode with each merge applied from the right."""
    ids = list(oracle.core.utf8(text))
    while len(ids) >= 2:
        stats = oracle.get_stats(ids)
        pair = min(stats, key=lambda p: merges.get(p, float("inf")))
        if pair not in merges:
            break
        ids = merge_from_the_right(ids, pair, merges[pair])
    return ids
