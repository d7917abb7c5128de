"""Known-wrong: with a split pattern, train normalises the text to NFC (and CRLF to LF) before cutting
it into chunks."""

from __future__ import annotations

import unicodedata

from spec.oracle import chunks
from spec.oracle.core import decode, get_stats, merge  # noqa: F401
from spec.oracle.persist import load, save  # noqa: F401
from spec.oracle.special import build_vocab, encode  # noqa: F401
from spec.oracle.stream import StreamDecoder  # noqa: F401

MISTAKE_CLAIMS: tuple[str, ...] = ("bytes.no-normalization",)


def train(text, vocab_size, *, pattern=None):
    """Without a pattern, the oracle's; with one, the chunks of the normalised text."""
    if pattern is not None:
        text = unicodedata.normalize("NFC", text.replace("\r\n", "\n"))
    return chunks.train(text, vocab_size, pattern=pattern)
