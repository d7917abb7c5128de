"""A correct implementation built differently: Counter for pairs, a generator for merge,
and an encode that walks the table in rank order instead of recounting pairs.

Walking the table once in rank order equals "merge the lowest-ranked present pair" only
for tables where every pair ranks after the ids it contains (every trained table). A
hand-made table can have a merge create a pair ranked earlier, so after each applied
merge the walk restarts from the top if it created such a pair.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence

Pair = tuple[int, int]


def _utf8(text: str) -> bytes:
    """Surrogates first become what tiktoken makes of them (a pair its character, a lone one U+FFFD)."""
    return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace").encode("utf-8")


def get_stats(ids: Sequence[int]) -> Counter[Pair]:
    """Counter over the zipped neighbours; it keeps first-insertion order, so first-seen order."""
    return Counter(zip(ids, ids[1:]))


def _replaced(ids: Iterable[int], pair: Pair, idx: int) -> Iterator[int]:
    """Yield the merged stream, holding one id back until its right neighbour is known."""
    first, second = pair
    held = False
    last = 0
    for x in ids:
        if held and last == first and x == second:
            yield idx
            held = False
        else:
            if held:
                yield last
            last, held = x, True
    if held:
        yield last


def merge(ids: Sequence[int], pair: Pair, idx: int) -> list[int]:
    """Return a new list; the input (list or tuple) is only read."""
    return list(_replaced(ids, pair, idx))


def train(text: str, vocab_size: int) -> dict[Pair, int]:
    """Collect the chosen pairs in a list, then number them from 256 with itertools.count."""
    if vocab_size < 256:
        raise ValueError(f"vocab_size must be at least 256, got {vocab_size}")
    ids = list(_utf8(text))
    chosen: list[Pair] = []
    while len(chosen) < vocab_size - 256:
        stats = get_stats(ids)
        if not stats:
            break
        [(best, _count)] = stats.most_common(1)  # ties: the first encountered wins
        ids = merge(ids, best, 256 + len(chosen))
        chosen.append(best)
    return dict(zip(chosen, itertools.count(256)))


def build_vocab(merges: Mapping[Pair, int]) -> dict[int, bytes]:
    """Expand each id to its bytes by following its pair down to single bytes (memoised)."""
    parts = {idx: pair for pair, idx in merges.items()}
    vocab: dict[int, bytes] = {}

    def expand(i: int) -> bytes:
        if i not in vocab:
            if i < 256:
                vocab[i] = bytes([i])
            else:
                left, right = parts[i]
                vocab[i] = expand(left) + expand(right)
        return vocab[i]

    return {i: expand(i) for i in itertools.chain(range(256), sorted(parts))}


def decode(ids: Iterable[int], vocab: Mapping[int, bytes]) -> str:
    """Accumulate into a bytearray, then decode once with replacement."""
    buf = bytearray()
    for i in ids:
        try:
            buf += vocab[i]
        except KeyError:
            raise KeyError(f"unknown token id {i}") from None
    return buf.decode("utf-8", errors="replace")


def encode(text: str, merges: Mapping[Pair, int]) -> list[int]:
    """Apply the merges in rank order, restarting only when a merge creates an earlier pair."""
    ranked = sorted(merges.items(), key=lambda item: item[1])
    ids = list(_utf8(text))
    k = 0
    while k < len(ranked) and len(ids) >= 2:
        pair, idx = ranked[k]
        merged = merge(ids, pair, idx)
        if len(merged) == len(ids):
            k += 1
            continue
        ids = merged
        created_earlier = any(merges.get(p, idx + 1) <= idx for p in zip(ids, ids[1:]))
        k = 0 if created_earlier else k + 1
    return ids
