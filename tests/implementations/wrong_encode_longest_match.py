"""Known-wrong: encode takes the longest vocabulary token at each position, left to right."""

from __future__ import annotations

from spec.oracle.core import build_vocab, decode, get_stats, merge, train, utf8  # noqa: F401

MISTAKE_CLAIMS: tuple[str, ...] = ("encode.priority-not-longest", "encode.lowest-rank")


def encode(text: str, merges: dict[tuple[int, int], int]) -> list[int]:
    """Greedy maximal munch over the token strings; merge ranks are ignored."""
    data = utf8(text)
    by_bytes = {token: idx for idx, token in build_vocab(merges).items()}
    longest = max(map(len, by_bytes))
    ids: list[int] = []
    i = 0
    while i < len(data):
        for size in range(min(longest, len(data) - i), 0, -1):
            token = data[i : i + size]
            if token in by_bytes:
                ids.append(by_bytes[token])
                i += size
                break
    return ids
