"""Level stream: an incremental decoder, and what the spec accepts from one.

``StreamDecoder`` lets the standard library's incremental UTF-8 decoder do the holding
back, as the contract states it. ``stream_text`` says, from the bytes alone, what a
decoder must have emitted so far; ``stream_texts_allowed`` adds the one leeway the spec
grants (CPython's decoder also holds a lead byte that only looks unfinished).
"""

from __future__ import annotations

import codecs


class StreamDecoder:
    """Feed ids one at a time; each call returns the text those bytes settle."""

    def __init__(self, vocab: dict[int, bytes]) -> None:
        self.vocab = vocab
        self.decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")

    def feed(self, token_id: int) -> str:
        return self.decoder.decode(self.vocab[token_id])

    def flush(self) -> str:
        return self.decoder.decode(b"", final=True)


def _unfinished(data: bytes) -> int:
    """Length of the trailing bytes that begin a character and could still be finished (0 to 3)."""
    for size in (3, 2, 1):
        if len(data) >= size:
            try:
                data[-size:].decode("utf-8")
            except UnicodeDecodeError as error:
                if error.start == 0 and error.reason == "unexpected end of data":
                    return size
    return 0


def _looks_unfinished(data: bytes) -> int:
    """Length of a trailing lead byte followed by fewer continuation bytes than it announces.

    Unlike ``_unfinished`` this ignores the finer rules on the second byte (E0 A0..BF,
    ED 80..9F, F0 90..BF, F4 80..8F), so it also counts, e.g., ED A0: CPython's incremental
    decoder holds those two bytes until the next one shows them invalid.
    """
    for size in (1, 2, 3):
        if len(data) < size:
            return 0
        byte = data[-size]
        if 0x80 <= byte <= 0xBF:
            continue  # a continuation byte: look further back for the lead
        need = 2 if 0xC2 <= byte <= 0xDF else 3 if 0xE0 <= byte <= 0xEF else 4 if 0xF0 <= byte <= 0xF4 else 0
        return size if size < need else 0
    return 0


def stream_text(data: bytes) -> str:
    """What a stream decoder has emitted, before flushing, once it has seen ``data``.

    Everything, decoded with replacement, except a character that could still be finished.
    """
    return data[: len(data) - _unfinished(data)].decode("utf-8", errors="replace")


def stream_texts_allowed(data: bytes) -> set[str]:
    """``stream_text``, or the same text also holding back a tail that only looks unfinished."""
    return {data[: len(data) - held].decode("utf-8", errors="replace")
            for held in (_unfinished(data), _looks_unfinished(data))}
