"""A correct implementation in another style: tuples, Counter with an explicit tie key,
``tuple.index`` jumps in merge, a generator min in encode, codecs in decode.

Ties are made explicit instead of relying on dict order: the best pair maximises
``(count, -first_index)``, which is exactly "the first counted among the most frequent".
"""

from __future__ import annotations

import codecs
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

Pair = tuple[int, int]


def _utf8(text: str) -> bytes:
    """Surrogates first become what tiktoken makes of them (a pair its character, a lone one U+FFFD)."""
    return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace").encode("utf-8")


def _first_index(ids: Sequence[int]) -> dict[Pair, int]:
    """Position where each pair first occurs, in the order the pairs first occur."""
    first: dict[Pair, int] = {}
    for i, pair in enumerate(zip(ids, ids[1:])):
        first.setdefault(pair, i)
    return first


def get_stats(ids: Sequence[int]) -> dict[Pair, int]:
    """Counts from a Counter, keys laid out by first occurrence."""
    counts = Counter(zip(ids, ids[1:]))
    return {pair: counts[pair] for pair in _first_index(ids)}


def merge(ids: Sequence[int], pair: Pair, idx: int) -> list[int]:
    """Jump from one occurrence of ``pair[0]`` to the next with ``.index``."""
    first, second = pair
    out: list[int] = []
    start = 0
    while True:
        try:
            j = ids.index(first, start)
        except ValueError:
            out.extend(ids[start:])
            return out
        if j + 1 < len(ids) and ids[j + 1] == second:
            out.extend(ids[start:j])
            out.append(idx)
            start = j + 2
        else:
            out.extend(ids[start : j + 1])
            start = j + 1


def train(text: str, vocab_size: int) -> dict[Pair, int]:
    """Keep the sequence as a tuple; pick by (count, -first_index) each round."""
    if vocab_size < 256:
        raise ValueError(f"vocab_size must be at least 256, got {vocab_size}")
    seq: tuple[int, ...] = tuple(_utf8(text))
    merges: dict[Pair, int] = {}
    for idx in range(256, vocab_size):
        counts = Counter(zip(seq, seq[1:]))
        if not counts:
            break
        first = _first_index(seq)
        best = max(counts, key=lambda p: (counts[p], -first[p]))
        seq = tuple(merge(seq, best, idx))
        merges[best] = idx
    return merges


def build_vocab(merges: Mapping[Pair, int]) -> dict[int, bytes]:
    """Single bytes from ``bytes(range(256))``, then the merges sorted by id."""
    base = bytes(range(256))
    vocab = {i: base[i : i + 1] for i in range(256)}
    for pair in sorted(merges, key=merges.__getitem__):
        vocab[merges[pair]] = vocab[pair[0]] + vocab[pair[1]]
    return vocab


def decode(ids: Iterable[int], vocab: Mapping[int, bytes]) -> str:
    """Join the tokens' bytes, then codecs.decode with the 'replace' handler."""
    ids = list(ids)
    unknown = [i for i in ids if i not in vocab]
    if unknown:
        raise ValueError(f"unknown token id {unknown[0]}")
    return codecs.decode(b"".join(vocab[i] for i in ids), "utf-8", "replace")


def encode(text: str, merges: Mapping[Pair, int]) -> list[int]:
    """Each step: the lowest (rank, position) among the present pairs, from a generator."""
    ids = list(_utf8(text))
    while True:
        best = min(
            ((merges[p], pos, p) for pos, p in enumerate(zip(ids, ids[1:])) if p in merges),
            default=None,
        )
        if best is None:
            return ids
        rank, _pos, pair = best
        ids = merge(ids, pair, rank)
