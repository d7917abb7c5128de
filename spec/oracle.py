"""The textbook algorithm: the definition property tests compare implementations against.

Deliberately slow and obvious. It is not the reference implementation, so mutating the
reference can never change what the spec expects.
"""

from __future__ import annotations

Pair = tuple[int, int]


def scalar_text(text: str) -> str:
    """The text a Python str stands for, repaired as tiktoken repairs it before encoding.

    A high surrogate followed by a low one becomes the character that UTF-16 pair spells;
    every other surrogate (a lone one) becomes U+FFFD. Text without surrogates is unchanged.
    """
    return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")


def utf8(text: str) -> bytes:
    """Where every level starts: the UTF-8 bytes of the repaired text."""
    return scalar_text(text).encode("utf-8")


def get_stats(ids: list[int]) -> dict[Pair, int]:
    counts: dict[Pair, int] = {}
    for pair in zip(ids, ids[1:]):
        counts[pair] = counts.get(pair, 0) + 1
    return counts


def merge(ids: list[int], pair: Pair, idx: int) -> list[int]:
    out, i = [], 0
    while i < len(ids):
        if i + 1 < len(ids) and (ids[i], ids[i + 1]) == pair:
            out.append(idx)
            i += 2
        else:
            out.append(ids[i])
            i += 1
    return out


def train(text: str, vocab_size: int) -> dict[Pair, int]:
    """Merges in training order; ``max`` keeps the first-counted pair among equal counts."""
    ids, merges = list(utf8(text)), {}
    for idx in range(256, vocab_size):
        stats = get_stats(ids)
        if not stats:
            break
        pair = max(stats, key=stats.get)
        ids = merge(ids, pair, idx)
        merges[pair] = idx
    return merges


def train_sequence(text: str, merges: dict[Pair, int]) -> list[int]:
    """The sequence training ended with: the bytes with every merge applied in training order."""
    ids = list(utf8(text))
    for pair, idx in merges.items():
        ids = merge(ids, pair, idx)
    return ids


def first_step_not_greedy(text: str, merges: list[tuple[Pair, int]]) -> int | None:
    """The first merge (by position in the table) whose pair was not among the most frequent when replayed
    in the table's order, or None: a table in training order passes whatever tie rule chose among equals."""
    ids = list(text.encode("utf-8"))
    for step, (pair, idx) in enumerate(merges):
        stats = get_stats(ids)
        if not stats or stats.get(pair, 0) != max(stats.values()):
            return step
        ids = merge(ids, pair, idx)
    return None


def build_vocab(merges: dict[Pair, int]) -> dict[int, bytes]:
    vocab = {i: bytes([i]) for i in range(256)}
    for (p0, p1), idx in sorted(merges.items(), key=lambda item: item[1]):
        vocab[idx] = vocab[p0] + vocab[p1]
    return vocab


def decode(ids: list[int], vocab: dict[int, bytes]) -> str:
    return b"".join(vocab[i] for i in ids).decode("utf-8", errors="replace")


def encode(text: str, merges: dict[Pair, int]) -> list[int]:
    """Repeatedly merge the present pair with the lowest rank (its id)."""
    ids = list(utf8(text))
    while len(ids) >= 2:
        stats = get_stats(ids)
        pair = min(stats, key=lambda p: merges.get(p, float("inf")))
        if pair not in merges:
            break
        ids = merge(ids, pair, merges[pair])
    return ids
