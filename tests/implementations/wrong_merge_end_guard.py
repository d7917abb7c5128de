"""Known-wrong: merge's bounds check is off by one, so a pair at the very end never merges.

``encode`` keeps the oracle's ``merge``: with this one it would loop forever on a pair
it cannot replace, and a hanging suite reports nothing.
"""

from __future__ import annotations

from spec.oracle import core
from spec.oracle.core import build_vocab, decode, encode, get_stats  # noqa: F401
from tests.implementations._rehome import rehome

MISTAKE_CLAIMS: tuple[str, ...] = ("merge.end-guard",)


def merge(ids: list[int], pair: tuple[int, int], idx: int) -> list[int]:
    """Textbook loop with ``len(ids) - 2`` where ``len(ids) - 1`` belongs."""
    out: list[int] = []
    i = 0
    while i < len(ids):
        if i < len(ids) - 2 and ids[i] == pair[0] and ids[i + 1] == pair[1]:
            out.append(idx)
            i += 2
        else:
            out.append(ids[i])
            i += 1
    return out


train = rehome(core.train, globals())
