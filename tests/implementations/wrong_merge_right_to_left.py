"""Known-wrong: merge scans from the right, so overlaps resolve right to left (aaa -> a Z)."""

# mypy: disable-error-code="no-redef"
from __future__ import annotations

from tests.implementations import textbook
from tests.implementations._rehome import rehome
from tests.implementations.textbook import *  # noqa: F403

MISTAKE_CLAIMS: tuple[str, ...] = ("merge.left-to-right", "train.wikipedia-walkthrough")


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


train = rehome(textbook.train, globals())
encode = rehome(textbook.encode, globals())
