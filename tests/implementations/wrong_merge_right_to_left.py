"""Known-wrong: merge scans from the right, so overlaps resolve right to left (aaa -> a Z)."""

from __future__ import annotations

from spec.oracle import core
from spec.oracle.core import build_vocab, decode, get_stats  # noqa: F401
from tests.implementations._rehome import rehome

MISTAKE_CLAIMS: tuple[str, ...] = ("merge.left-to-right",)


def merge(ids: list[int], pair: tuple[int, int], idx: int) -> list[int]:
    """Walk from the end and reverse at the end: the last overlapping pair wins."""
    out: list[int] = []
    i = len(ids) - 1
    while i >= 0:
        if i >= 1 and ids[i - 1] == pair[0] and ids[i] == pair[1]:
            out.append(idx)
            i -= 2
        else:
            out.append(ids[i])
            i -= 1
    out.reverse()
    return out


train = rehome(core.train, globals())
encode = rehome(core.encode, globals())
