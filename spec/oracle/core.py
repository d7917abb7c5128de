"""The core levels (bytes, pairs, merge, train, decode, encode), the textbook way.

Deliberately slow and obvious: a dict loop to count pairs, a while loop to merge, a full
recount per merge in ``train``, ``min`` over ranks in ``encode``. Self-contained on purpose
(a learner's whole file looks like this one), and independent of the reference, so
mutating the reference can never change what the spec expects.

The functions call one another by bare name, so a known-wrong implementation that replaces
one of them (``merge``, ``get_stats``, ``most_frequent``, ``utf8``) re-homes its callers and the mistake reaches
``train`` and ``encode`` (tests/implementations/_rehome.py).
"""

from __future__ import annotations

#: The core levels' contract; ``utf8``, ``scalar_text`` and ``train_sequence`` are the spec's helpers.
__all__ = ["get_stats", "merge", "train", "build_vocab", "decode", "encode"]

Pair = tuple[int, int]


def scalar_text(text: str) -> str:
    """The text a Python str stands for, repaired as tiktoken repairs it (level surrogates).

    A high surrogate followed by a low one becomes the character that UTF-16 pair spells;
    every other surrogate (a lone one) becomes U+FFFD. Text without surrogates is unchanged.
    """
    return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")


def utf8(text: str) -> bytes:
    """Where every level starts: the UTF-8 bytes of the repaired text."""
    return scalar_text(text).encode("utf-8")


def get_stats(ids: list[int]) -> dict[Pair, int]:
    """Count every adjacent pair, overlaps included; keys keep first-seen order."""
    counts: dict[Pair, int] = {}
    for pair in zip(ids, ids[1:]):
        counts[pair] = counts.get(pair, 0) + 1
    return counts


def merge(ids: list[int], pair: Pair, idx: int) -> list[int]:
    """A new list with each occurrence of ``pair``, scanned left to right, replaced by ``idx``."""
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


def most_frequent(stats: dict[Pair, int]) -> Pair:
    """The pair with the highest count; ``max`` keeps the first counted among equal counts."""
    return max(stats, key=lambda pair: stats[pair])


def check_vocab_size(vocab_size: int) -> None:
    """ValueError for a size below the 256 byte tokens: no table can have fewer ids."""
    if vocab_size < 256:
        raise ValueError(f"vocab_size must be at least 256, got {vocab_size}")


def train(text: str, vocab_size: int) -> dict[Pair, int]:
    """Learn ``vocab_size - 256`` merges, each the most frequent pair of the sequence so far."""
    check_vocab_size(vocab_size)
    ids = list(utf8(text))
    merges: dict[Pair, int] = {}
    for idx in range(256, vocab_size):
        stats = get_stats(ids)
        if not stats:
            break
        best = most_frequent(stats)
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
    """Repeatedly merge the present pair learned earliest (lowest id) until none applies."""
    return encode_ids(list(utf8(text)), merges)


def encode_ids(ids: list[int], merges: dict[Pair, int]) -> list[int]:
    """``encode`` from the bytes on: a chunk that is bytes, not text (a pattern matched against the bytes)."""
    while len(ids) >= 2:
        stats = get_stats(ids)
        pair = min(stats, key=lambda p: merges.get(p, float("inf")))
        if pair not in merges:
            break
        ids = merge(ids, pair, merges[pair])
    return ids


def train_sequence(text: str, merges: dict[Pair, int]) -> list[int]:
    """The sequence training ended with: the bytes with every merge applied in training order (chunk by chunk
    under the split in force, spec/oracle/split.py, joined)."""
    from spec.oracle import split
    from spec.oracle.chunks import chunk_bytes

    pattern = split.resolve(None)
    out: list[int] = []
    for ids in [list(utf8(text))] if pattern is None else chunk_bytes(text, pattern):
        for pair, idx in merges.items():
            ids = merge(ids, pair, idx)
        out += ids
    return out
