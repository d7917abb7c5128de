"""Known-wrong: train keeps every pair it ever counted, at count 0 once it is gone, and takes ``max`` over them
all; when no pair is left it goes on "merging" a pair of count 0 (the first ever counted) under each new id, so
the table's first pair ends with the last id (issue 37, kind 9: a merge learned at count 0)."""

from __future__ import annotations

from spec.oracle import core
from spec.oracle.core import build_vocab, decode, encode, get_stats, merge, utf8  # noqa: F401

MISTAKE_CLAIMS: tuple[str, ...] = ("train.exhausted",)  # the ids' hole is the repeat's mark (spec/table_ids.py)


def train(text: str, vocab_size: int) -> dict[tuple[int, int], int]:
    core.check_vocab_size(vocab_size)
    ids = list(utf8(text))
    counts: dict[tuple[int, int], int] = {}
    merges: dict[tuple[int, int], int] = {}
    for idx in range(256, vocab_size):
        now = get_stats(ids)
        counts = now | {pair: 0 for pair in counts if pair not in now}  # gone pairs stay, at 0
        if not counts:
            break
        best = max(counts, key=counts.get)
        ids = merge(ids, best, idx)
        merges[best] = idx
    return merges
