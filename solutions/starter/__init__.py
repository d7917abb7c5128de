"""A byte-level BPE tokenizer, to be written by you.

Copy this package with ``bpe-kata new NAME`` and fill in one function at a time; run
``bpe-kata check solutions.NAME`` after each. A function that still raises
NotImplementedError makes its level "not started", never an error. The full contract,
with the reasons behind it, is spec/CONTRACT.md.

Ids are ints: 0..255 are the byte values, 256 and up are merges in training order.
A pair is a tuple (left_id, right_id). A merge table is a dict {pair: new_id} whose
insertion order is the order the merges were learned in.
"""

from __future__ import annotations

Pair = tuple[int, int]


def get_stats(ids: list[int]) -> dict[Pair, int]:
    """Count every adjacent pair, overlapping ones too ([a, a, a] has (a, a) twice).

    Keys in order of first occurrence. [] and [x] have no pairs. Do not change ``ids``.
    Level: pairs.
    """
    raise NotImplementedError


def merge(ids: list[int], pair: Pair, idx: int) -> list[int]:
    """Return a new list with each occurrence of ``pair`` replaced by ``idx``.

    Scan left to right; occurrences do not overlap, so [a, a, a] with (a, a) becomes
    [idx, a]. A pair ending at the last position merges. Do not change ``ids``.
    Level: merge.
    """
    raise NotImplementedError


def train(text: str, vocab_size: int) -> dict[Pair, int]:
    """Learn ``vocab_size - 256`` merges from the UTF-8 bytes of ``text``.

    Each step merges the most frequent pair; among equal counts the pair counted first
    (first occurrence in the current sequence) wins. New ids are 256, 257, ... and the
    returned dict is in training order. Stop early, without error, when no pair is left;
    do not stop just because the best count is 1. vocab_size < 256 raises ValueError.
    Level: train.
    """
    raise NotImplementedError


def build_vocab(merges: dict[Pair, int]) -> dict[int, bytes]:
    """Map every id to its bytes: 0..255 to themselves, then each merge to its parts joined.

    Build merges in id order, since a merge's parts may be earlier merges. Level: decode.
    """
    raise NotImplementedError


def decode(ids: list[int], vocab: dict[int, bytes]) -> str:
    """Join all the ids' bytes first, then decode UTF-8 with replacement ("\\ufffd").

    Decoding token by token would break characters split across tokens. An id missing
    from ``vocab`` raises KeyError or ValueError naming it. Level: decode.
    """
    raise NotImplementedError


def encode(text: str, merges: dict[Pair, int]) -> list[int]:
    """Turn text into ids: start from its UTF-8 bytes, then replay the merges.

    While some adjacent pair is in ``merges``, merge the one with the lowest id (the
    earliest learned) everywhere, left to right. Not the most frequent pair, not the
    longest token. Never change ``merges``. With ``merges == {}`` this is the bytes.
    Levels: bytes, encode.
    """
    raise NotImplementedError


# --- Beyond the core (see spec/CONTRACT.md, "Beyond the core") -------------------------
# The later levels add keyword arguments to the functions above and a few new names.
# A level whose keywords or names are missing is reported "not started".

# regex, special, persist, stream: stubs written with those levels

# words, ties: stubs written with those levels
