"""Known-wrong: build_vocab walks the merges in a hash map's order (a HashMap port), so a merge whose part is
a later merge not built yet raises KeyError on some tables (issue 37, kind 6)."""

from __future__ import annotations

from spec.oracle.core import decode, encode, get_stats, merge, train  # noqa: F401

MISTAKE_CLAIMS: tuple[str, ...] = ("decode.vocab-order",)


def build_vocab(merges: dict[tuple[int, int], int]) -> dict[int, bytes]:
    """Each merge in the order of its pair's (fixed) hash bucket, not in id order."""
    vocab = {i: bytes([i]) for i in range(256)}
    for (p0, p1), idx in sorted(merges.items(), key=lambda item: (item[0][0] * 31 + item[0][1]) % 61):
        vocab[idx] = vocab[p0] + vocab[p1]
    return vocab
