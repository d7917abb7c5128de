"""Turn an implementation's results into plain values before comparing.

The contract fixes behaviour, not types: a Counter, an OrderedDict or a tuple key that
is a named tuple all honour it, so the spec compares contents and order only.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

Pair = tuple[int, int]


def ids_of(result: Iterable[int]) -> list[int]:
    return [int(i) for i in result]


def pairs_of(stats: Mapping) -> list[tuple[Pair, int]]:
    """(pair, count) in the mapping's own order."""
    return [((int(a), int(b)), int(n)) for (a, b), n in stats.items()]


def merges_of(merges: Mapping) -> list[tuple[Pair, int]]:
    """(pair, id) in the table's own order, which must be training order."""
    return [((int(a), int(b)), int(idx)) for (a, b), idx in merges.items()]


def bytes_of(token: bytes | bytearray | memoryview) -> bytes:
    return bytes(token)


def word_merges_of(merges: Iterable) -> list[tuple[tuple[str, str], int]]:
    """train_words' result as ((left, right), count) items, in the implementation's order."""
    return [((str(a), str(b)), int(n)) for (a, b), n in merges]


def symbols_of(segments: Iterable) -> list[str]:
    return [str(s) for s in segments]
