"""Known-wrong: get_stats returns its pairs sorted, losing the first-seen order ties rely on."""

from __future__ import annotations

from spec.oracle import core
from spec.oracle.core import build_vocab, decode, merge  # noqa: F401
from tests.implementations._rehome import rehome

MISTAKE_CLAIMS: tuple[str, ...] = ("pairs.first-seen-order",)


def get_stats(ids: list[int]) -> dict[tuple[int, int], int]:
    """Count correctly, then tidy the result by sorting it by pair."""
    counts: dict[tuple[int, int], int] = {}
    for pair in zip(ids, ids[1:]):
        counts[pair] = counts.get(pair, 0) + 1
    return dict(sorted(counts.items()))


train = rehome(core.train, globals())
encode = rehome(core.encode, globals())
