"""Known-wrong, written the way minbpe's basic trainer is: ``max(stats, key=stats.get)`` with no empty check.

Once training has merged everything into one id, the next step takes the max of no pairs
and raises ValueError. That single mistake makes tests of many levels error (any test that
trains a short text to a large vocabulary), which is what the report's root-cause grouping
is for: one line for the error, naming ``train.exhausted`` as the claim it breaks.
"""

from __future__ import annotations

Pair = tuple[int, int]

MISTAKE_CLAIMS: tuple[str, ...] = ("train.exhausted",)


def get_stats(ids: list[int]) -> dict[Pair, int]:
    counts: dict[Pair, int] = {}
    for pair in zip(ids, ids[1:]):
        counts[pair] = counts.get(pair, 0) + 1
    return counts


def merge(ids: list[int], pair: Pair, idx: int) -> list[int]:
    out, i = [], 0
    while i < len(ids):
        if i < len(ids) - 1 and ids[i] == pair[0] and ids[i + 1] == pair[1]:
            out.append(idx)
            i += 2
        else:
            out.append(ids[i])
            i += 1
    return out


def train(text: str, vocab_size: int) -> dict[Pair, int]:
    if vocab_size < 256:
        raise ValueError(f"vocab_size must be at least 256, got {vocab_size}")
    ids = list(text.encode("utf-8"))
    merges: dict[Pair, int] = {}
    for i in range(vocab_size - 256):
        stats = get_stats(ids)
        pair = max(stats, key=stats.get)  # the mistake: nothing left to merge raises here
        idx = 256 + i
        ids = merge(ids, pair, idx)
        merges[pair] = idx
    return merges


def build_vocab(merges: dict[Pair, int]) -> dict[int, bytes]:
    vocab = {idx: bytes([idx]) for idx in range(256)}
    for (p0, p1), idx in sorted(merges.items(), key=lambda item: item[1]):
        vocab[idx] = vocab[p0] + vocab[p1]
    return vocab


def decode(ids: list[int], vocab: dict[int, bytes]) -> str:
    for idx in ids:
        if idx not in vocab:
            raise KeyError(f"unknown token id {idx}")
    return b"".join(vocab[idx] for idx in ids).decode("utf-8", errors="replace")


def encode(text: str, merges: dict[Pair, int]) -> list[int]:
    ids = list(text.encode("utf-8"))
    while len(ids) >= 2:
        stats = get_stats(ids)
        pair = min(stats, key=lambda p: merges.get(p, float("inf")))
        if pair not in merges:
            break
        ids = merge(ids, pair, merges[pair])
    return ids
