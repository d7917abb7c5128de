"""The plain textbook byte-level BPE, the base the known-wrong variants start from.

Every function is the slowest obvious version on purpose: a full recount per merge,
a while loop for merging, ``min`` over ranks for encoding.
"""

from __future__ import annotations

__all__ = ["get_stats", "merge", "train", "build_vocab", "decode", "encode", "utf8"]  # utf8: for re-homed copies

Pair = tuple[int, int]


def utf8(text: str) -> bytes:
    """The UTF-8 bytes of ``text``, surrogates repaired first as tiktoken does: a high one
    followed by a low one is their character, any other is U+FFFD."""
    return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace").encode("utf-8")


def get_stats(ids: list[int]) -> dict[Pair, int]:
    """Count every adjacent pair, overlaps included; keys keep first-seen order."""
    counts: dict[Pair, int] = {}
    for pair in zip(ids, ids[1:]):
        counts[pair] = counts.get(pair, 0) + 1
    return counts


def merge(ids: list[int], pair: Pair, idx: int) -> list[int]:
    """Return a new list with ``pair`` replaced by ``idx``, scanning left to right."""
    out: list[int] = []
    i = 0
    while i < len(ids):
        if i + 1 < len(ids) and ids[i] == pair[0] and ids[i + 1] == pair[1]:
            out.append(idx)
            i += 2
        else:
            out.append(ids[i])
            i += 1
    return out


def train(text: str, vocab_size: int) -> dict[Pair, int]:
    """Learn ``vocab_size - 256`` merges; ties go to the pair counted first."""
    if vocab_size < 256:
        raise ValueError(f"vocab_size must be at least 256, got {vocab_size}")
    ids = list(utf8(text))
    merges: dict[Pair, int] = {}
    for idx in range(256, vocab_size):
        stats = get_stats(ids)
        if not stats:
            break
        best = max(stats, key=lambda pair: stats[pair])  # the first maximal key wins
        ids = merge(ids, best, idx)
        merges[best] = idx
    return merges


def build_vocab(merges: dict[Pair, int]) -> dict[int, bytes]:
    """Map every id to its bytes: the 256 single bytes, then each merge in id order."""
    vocab = {i: bytes([i]) for i in range(256)}
    for (p0, p1), idx in sorted(merges.items(), key=lambda item: item[1]):
        vocab[idx] = vocab[p0] + vocab[p1]
    return vocab


def decode(ids: list[int], vocab: dict[int, bytes]) -> str:
    """Join the bytes of all ids first, then decode UTF-8 with replacement."""
    for i in ids:
        if i not in vocab:
            raise KeyError(f"unknown token id {i}")
    return b"".join(vocab[i] for i in ids).decode("utf-8", errors="replace")


def encode(text: str, merges: dict[Pair, int]) -> list[int]:
    """Repeatedly merge the present pair learned earliest until none applies."""
    ids = list(utf8(text))
    while len(ids) >= 2:
        stats = get_stats(ids)
        pair = min(stats, key=lambda p: merges.get(p, float("inf")))
        if pair not in merges:
            break
        ids = merge(ids, pair, merges[pair])
    return ids
