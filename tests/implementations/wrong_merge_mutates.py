"""Known-wrong: merge splices the caller's list in place and returns that same list."""

from __future__ import annotations

from spec.oracle import core
from spec.oracle.core import build_vocab, decode, get_stats  # noqa: F401
from tests.implementations._rehome import rehome

MISTAKE_CLAIMS: tuple[str, ...] = ("merge.pure",)


def merge(ids: list[int], pair: tuple[int, int], idx: int) -> list[int]:
    """Replace matches by slice assignment; the result is right, the input is gone."""
    i = 0
    while i < len(ids) - 1:
        if ids[i] == pair[0] and ids[i + 1] == pair[1]:
            ids[i : i + 2] = [idx]
        i += 1
    return ids


train = rehome(core.train, globals())
encode = rehome(core.encode, globals())
