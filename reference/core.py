"""The small building blocks of byte-level BPE: pair counts, one merge, vocabulary, decoding.

These are the plain, whole-sequence operations. Training and encoding do not call them in
their inner loops (that would rescan the sequence per merge); they exist because they are
part of the public contract and because their behaviour defines what the fast paths must
reproduce.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from itertools import islice

from .tables import BASE_VOCAB_SIZE, check_special_tokens, checked_merges

__all__ = ["get_stats", "merge", "build_vocab", "decode"]


def get_stats(ids: Iterable[int]) -> dict[tuple[int, int], int]:
    """Count every adjacent pair, overlapping ones included.

    Keys come out in order of first occurrence; training relies on that order to break
    ties, so a plain dict (insertion ordered) is returned rather than the Counter. Any
    iterable of ids works: one that is not a sequence (an iterator) is read once, into a list.
    """
    ids = _sequence(ids)
    # Counter fills itself in iteration order, i.e. by first occurrence.
    return dict(Counter(zip(ids, islice(ids, 1, None))))


def merge(ids: Sequence[int], pair: tuple[int, int], idx: int) -> list[int]:
    """Return a new list with each occurrence of `pair` replaced by `idx`.

    Occurrences are taken left to right and never overlap: in ``a a a`` only the first two
    merge, because the middle ``a`` is consumed by the first match.
    """
    ids = _sequence(ids)
    first, second = pair
    out: list[int] = []
    append = out.append
    n = len(ids)
    i = 0
    while i < n:
        if i + 1 < n and ids[i] == first and ids[i + 1] == second:
            append(idx)
            i += 2
        else:
            append(ids[i])
            i += 1
    return out


def _sequence(ids: Iterable[int]) -> Sequence[int]:
    """``ids`` if it can be read twice and indexed, else its items in a list."""
    if isinstance(ids, Sequence):
        return ids
    if not isinstance(ids, Iterable):
        raise TypeError(f"ids must be a sequence of ints, not {type(ids).__name__}")
    return list(ids)


def build_vocab(merges: Mapping[tuple[int, int], int],
                special_tokens: Mapping[str, int] | None = None) -> dict[int, bytes]:
    """Map every id to its bytes: the 256 single bytes, then each merge in id order.

    Processing by id (not by dict order) means a table whose entries were stored out of
    order still builds correctly, as long as every merge only uses ids that come before it.
    Special tokens map to the UTF-8 bytes of their text, so decoding gives that text back.
    A table that breaks a rule of ``tables`` (a merge id that is a byte or repeats, a part
    not defined yet, a special id a merge uses) raises ValueError; a wrong type, TypeError.
    """
    vocab = {i: bytes([i]) for i in range(BASE_VOCAB_SIZE)}
    rows = checked_merges(merges)
    for (left, right), idx in rows:
        vocab[idx] = vocab[left] + vocab[right]
    specials = check_special_tokens(special_tokens, {idx for _, idx in rows})
    for special, idx in specials.items():
        vocab[idx] = special.encode("utf-8")
    return vocab


def decode(ids: Iterable[int], vocab: Mapping[int, bytes]) -> str:
    """Join the tokens' bytes first, then decode once, replacing invalid UTF-8.

    Decoding token by token would break characters whose bytes span two tokens.
    """
    ids = list(ids)
    try:
        data = b"".join([vocab[i] for i in ids])
    except KeyError:
        raise _unknown_id(ids, vocab) from None
    return data.decode("utf-8", errors="replace")


def _unknown_id(ids: list[int], vocab: Mapping[int, bytes]) -> ValueError:
    """Build the error for the first id in `ids` that the vocabulary lacks."""
    pos, token = next((p, t) for p, t in enumerate(ids) if t not in vocab)
    return ValueError(
        f"unknown token id {token!r} at position {pos}: the vocabulary has"
        f" {len(vocab)} ids, {_id_range(vocab)}"
    )


def _id_range(vocab: Mapping[int, bytes]) -> str:
    """Describe the vocabulary's ids briefly for error messages."""
    if not vocab:
        return "none at all"
    return f"from {min(vocab)} to {max(vocab)}"
