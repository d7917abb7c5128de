"""Known-wrong: merge's bounds check is off by one, so a pair at the very end never merges.

``encode`` keeps the textbook ``merge``: with this one it would loop forever on a pair
it cannot replace, and a hanging suite reports nothing.
"""

# mypy: disable-error-code="no-redef"
from __future__ import annotations

from tests.implementations import textbook
from tests.implementations._rehome import rehome
from tests.implementations.textbook import *  # noqa: F403

MISTAKE_CLAIMS: tuple[str, ...] = ("merge.end-guard", "merge.the-tree")


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


train = rehome(textbook.train, globals())
