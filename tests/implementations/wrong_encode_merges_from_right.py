"""Known-wrong: encode replaces a pair's occurrences from the right (aaa -> a Z), though merge itself is right."""

from __future__ import annotations

from spec.oracle.core import build_vocab, decode, get_stats, merge, train  # noqa: F401

MISTAKE_CLAIMS: tuple[str, ...] = ("merge.left-to-right",)


def encode(text: str, merges: dict[tuple[int, int], int]) -> list[int]:
    """Lowest rank first, as the oracle; each merge is applied in place, from the last position back."""
    ids = list(text.encode("utf-8"))
    while len(ids) >= 2:
        stats = get_stats(ids)
        pair = min(stats, key=lambda p: merges.get(p, float("inf")))
        if pair not in merges:
            break
        i = len(ids) - 2
        while i >= 0:
            if ids[i] == pair[0] and ids[i + 1] == pair[1]:
                ids[i:i + 2] = [merges[pair]]
                i -= 2
            else:
                i -= 1
    return ids
