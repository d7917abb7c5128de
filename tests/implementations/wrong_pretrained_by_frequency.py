"""Known-wrong: with a published table, each chunk merges its most frequent known pair, not the lowest rank."""

from __future__ import annotations

from tests.implementations import textbook_pretrained
from tests.implementations._rehome import rehome
from tests.implementations.textbook import get_stats, merge
from tests.implementations.textbook_pretrained import *  # noqa: F403
from tests.implementations.textbook_pretrained import regex, split  # noqa: F401  (used by the rehomed encode)

# The claim naming the mistake first; then claims whose documented values this breaks too.
MISTAKE_CLAIMS: tuple[str, ...] = (
    "pretrained.reproduce",
    "pretrained.cl100k-indent",
    "pretrained.cl100k-numbers",
)
# Claims that fail or pass depending on the example a test picks.
ALSO_MAY_FAIL: tuple[str, ...] = ()


def encode_chunk(chunk: str, merges: dict[tuple[int, int], int]) -> list[int]:
    """Replay training on the chunk: the known pair counted most often wins."""
    ids = list(chunk.encode("utf-8"))
    while len(ids) >= 2:
        known = {pair: count for pair, count in get_stats(ids).items() if pair in merges}
        if not known:
            break
        pair = max(known, key=known.get)
        ids = merge(ids, pair, merges[pair])
    return ids


encode = rehome(textbook_pretrained.encode, globals())
