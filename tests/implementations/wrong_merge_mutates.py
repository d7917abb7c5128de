"""Known-wrong: merge splices the caller's list in place and returns that same list."""

# mypy: disable-error-code="no-redef"
from __future__ import annotations

from tests.implementations import textbook
from tests.implementations._rehome import rehome
from tests.implementations.textbook import *  # noqa: F403

MISTAKE_CLAIMS: tuple[str, ...] = ("merge.pure",)


def merge(ids: list[int], pair: tuple[int, int], idx: int) -> list[int]:
    """Replace matches by slice assignment; the result is right, the input is gone."""
    i = 0
    while i < len(ids) - 1:
        if ids[i] == pair[0] and ids[i + 1] == pair[1]:
            ids[i : i + 2] = [idx]
        i += 1
    return ids


train = rehome(textbook.train, globals())
encode = rehome(textbook.encode, globals())
