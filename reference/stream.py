"""Streaming decode: text out as soon as it is known, never a premature replacement character.

A model emits one id at a time, and a token can end in the middle of a character. The
decoder keeps the bytes of an unfinished character until a later token completes it; bytes
that can no longer be part of any character come out at once as U+FFFD. Everything
emitted, flush included, is exactly ``decode`` of all the ids.
"""

from __future__ import annotations

import codecs
from collections.abc import Mapping

__all__ = ["StreamDecoder"]

_Utf8Decoder = codecs.getincrementaldecoder("utf-8")


class StreamDecoder:
    """Feed ids one by one; each ``feed`` returns the text completed by that id."""

    def __init__(self, vocab: Mapping[int, bytes]) -> None:
        self.vocab = vocab
        self._decoder = _Utf8Decoder(errors="replace")

    def feed(self, token_id: int) -> str:
        """The text this id completes; an unfinished character's bytes wait for the next ids."""
        try:
            data = self.vocab[token_id]
        except KeyError:
            raise ValueError(f"unknown token id {token_id!r}: it is not in the vocabulary") from None
        return self._decoder.decode(bytes(data))

    def flush(self) -> str:
        """End the stream: U+FFFD for an unfinished character, else ''. The decoder starts afresh."""
        rest = self._decoder.decode(b"", final=True)
        self._decoder.reset()
        return rest
