"""Known-wrong: pairs are counted once, and the top pairs of that first count become the merges.

No recount means a merged token can never take part in a later merge.
"""

from __future__ import annotations

from spec.oracle.core import build_vocab, decode, encode, get_stats, merge, utf8  # noqa: F401

MISTAKE_CLAIMS: tuple[str, ...] = ("train.merged-again", "train.most-frequent", "train.no-early-stop")


def train(text: str, vocab_size: int) -> dict[tuple[int, int], int]:
    """Rank the initial pairs by count (stable sort: ties stay first-counted); take the top."""
    if vocab_size < 256:
        raise ValueError(f"vocab_size must be at least 256, got {vocab_size}")
    ids = list(utf8(text))
    stats = get_stats(ids)
    ranked = sorted(stats, key=lambda pair: stats[pair], reverse=True)
    merges: dict[tuple[int, int], int] = {}
    for idx, pair in zip(range(256, vocab_size), ranked):
        ids = merge(ids, pair, idx)
        merges[pair] = idx
    return merges
