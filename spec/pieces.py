"""Encode a whole corpus through an implementation in short pieces, with the same result.

A textbook ``encode`` (recount the pairs, merge the lowest-ranked, repeat) costs about as
much on a whole corpus as training on it did (one recount per merge applied). But where
the expected encoding has a token boundary, nothing was ever merged across it, and
``merge`` scans left to right afresh from there: encoding the text on either side alone
gives the same tokens. So the spec cuts the corpus at boundaries of the expected ids
(replayed by spec/replay.py from a table trained by training's own rules) that also fall
between characters, into pieces of a few bytes, and encodes each distinct piece once. The
implementation's encode is then checked piece by piece, exactly, and the pieces' lengths add
up to the whole corpus's.
"""

from __future__ import annotations

import contextlib
import itertools
from collections.abc import Callable, Container, Iterable, Iterator, Mapping, Sequence

from spec import compare

#: Pieces are cut at the first boundary at least this many bytes after the last cut: a few
#: tokens each, so that lowest-rank order matters inside a piece, while the cost of a
#: textbook encode (about the square of a piece's length) stays small.
PIECE_BYTES = 8


def token_aligned_pieces(text: str, ids: Sequence[int], token_bytes: Mapping[int, bytes], min_bytes: int = PIECE_BYTES,
                         cuts: Container[int] | None = None) -> list[tuple[str, list[int]]]:
    """``text`` cut where ``ids`` (its expected encoding) has a token and character boundary (and, given
    ``cuts``, only at those byte offsets).

    Each piece comes with its expected ids; the pieces join to ``text`` and their ids to ``ids``.
    """
    data = text.encode("utf-8")
    pieces: list[tuple[str, list[int]]] = []
    start = end = 0
    first = 0
    for position, idx in enumerate(ids):
        end += len(token_bytes[idx])
        between_characters = end == len(data) or data[end] & 0xC0 != 0x80
        if end - start >= min_bytes and between_characters and (cuts is None or end in cuts):
            pieces.append((data[start:end].decode("utf-8"), list(ids[first:position + 1])))
            start, first = end, position + 1
    if end != len(data):
        raise ValueError("the ids do not spell the text")
    if start < end:
        pieces.append((data[start:end].decode("utf-8"), list(ids[first:])))
    return pieces


def chunk_aligned_pieces(text: str, ids: Sequence[int], token_bytes: Mapping[int, bytes], chunks: Iterable[str],
                         encode: Callable[[str], Sequence[int]]) -> list[tuple[str, list[int]]]:
    """Under a split (the implementation always splits with a pattern): ``text`` cut at the ends of its
    ``chunks``, one chunk a piece, so an implementation that splits each piece again meets the corpus's
    own chunks. A piece whose own encoding (``encode``: the oracle's, under the split) is not its expected
    ids, because the pattern cuts it otherwise alone, is joined to the next one, so every piece stands alone."""
    ends = set(itertools.accumulate(len(chunk.encode("utf-8")) for chunk in chunks))
    alone: dict[str, bool] = {}
    pieces: list[tuple[str, list[int]]] = []
    pending: tuple[str, list[int]] | None = None
    for piece, want in token_aligned_pieces(text, ids, token_bytes, min_bytes=1, cuts=ends):
        if pending is not None:
            piece, want = pending[0] + piece, pending[1] + want
        if piece not in alone:
            alone[piece] = list(encode(piece)) == want
        pending = None if alone[piece] else (piece, want)
        if pending is None:
            pieces.append((piece, want))
    if pending is not None:
        pieces.append(pending)
    return pieces


def encode_checked(encode: Callable[[str], Sequence[int]], pieces: Sequence[tuple[str, list[int]]], where: str,
                   merges: Mapping, tick: Callable[[int, int], None] = lambda count, total: None,
                   encode_each: Callable[[list[str]], Iterator[Sequence[int]]] | None = None) -> list[int]:
    """The implementation's ``encode`` of each distinct piece, each checked exactly against the piece's
    expected ids (an AssertionError names the first piece that differs, ``where`` says of what); the
    ids of the whole text, the pieces' joined. ``tick(count, total)`` follows the distinct pieces.

    ``encode_each(texts)``, when given, makes the same calls in the same order and yields their
    results one by one (an isolated child answers them pipelined); it is closed at the first piece
    that differs, so nothing after it is checked, as with ``encode``."""
    distinct = {text: want for text, want in pieces}
    done: dict[str, list[int]] = {}
    if encode_each is None:
        for count, (text, want) in enumerate(distinct.items(), start=1):
            got = encode(text)
            compare.expect_equal(got, want, f"encode({text!r}), {where}", merges=merges)
            done[text] = got
            tick(count, len(distinct))
    else:
        with contextlib.closing(encode_each(list(distinct))) as answers:
            for count, ((text, want), got) in enumerate(zip(distinct.items(), answers), start=1):
                compare.expect_equal(got, want, f"encode({text!r}), {where}", merges=merges)
                done[text] = got
                tick(count, len(distinct))
    return [idx for text, _ in pieces for idx in done[text]]
