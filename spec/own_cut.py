"""Whether a wrong encoding can be the split's: the evidence a chunk claim needs before it is charged.

A test of how a pattern cuts text (``regex.gpt2-chunks``, ``regex.no-cross-chunk``) compares the implementation's
ids with the oracle's. Ids can differ for reasons that have nothing to do with the cut: an encoder that folds
``\\r\\n`` into ``\\n`` (its ids no longer spell the text's bytes), or one that merges a run in the wrong order inside
one chunk. Both were charged to the chunk claims (eighth round, development: CRLF folded in encode charged to
regex.gpt2-chunks; an in-chunk merge order charged to regex.no-cross-chunk on '111', one chunk). The chunk claim is
about the cut only: when the implementation's ids are its own encodings of the pattern's chunks, one by one, it cut
as the pattern does, and the difference is inside a chunk, another claim's, checked at its own level.
"""

from __future__ import annotations

from spec import oracle
from spec.oracle.chunks import chunks
from spec.shapes import ids_of


def cut_as_the_pattern(bpe, text: str, merges: dict, pattern: str, got: list[int]) -> bool:
    """``got`` (the implementation's ids of ``text``) is its own encoding of the pattern's chunks of ``text``, one
    chunk at a time: no merge crossed a cut, and the cut was the pattern's. False when it cannot tell."""
    return bool(pattern) and own_encodings(bpe, chunks(text, pattern), merges, pattern) == list(got)


def own_encodings(bpe, pieces: list[str], merges, pattern: str | None, between: list[int] = ()) -> list[int] | None:
    """The implementation's own encodings of ``pieces``, one at a time, joined (with ``between`` between each two):
    what its ids are when it treats each piece apart. None when a call fails: no answer is no evidence."""
    joined: list[int] = []
    try:
        for number, piece in enumerate(pieces):
            joined += (list(between) if number else []) + ids_of(bpe.encode(piece, merges, pattern=pattern))
    except Exception:  # noqa: BLE001  no answer is no evidence
        return None
    return joined


def spells_other_bytes(text: str, merges: dict, got: list[int]) -> bool:
    """``got`` does not spell the text's bytes with the table's tokens (an id the table lacks, or other bytes): no
    cut of the text gives such ids, so the difference is not the split's."""
    vocab = oracle.build_vocab(dict(merges))
    if any(not isinstance(idx, int) or idx not in vocab for idx in got):
        return True
    return b"".join(vocab[idx] for idx in got) != oracle.core.utf8(text)


def not_the_split(bpe, text: str, merges: dict, pattern: str, got: list[int]) -> bool:
    """The evidence clears the split: the ids spell other bytes, or they are the implementation's own encodings of
    the pattern's chunks."""
    return spells_other_bytes(text, merges, got) or cut_as_the_pattern(bpe, text, merges, pattern, got)
