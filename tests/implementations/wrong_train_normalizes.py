"""Known-wrong: train folds CRLF to LF and normalises to NFC before taking the bytes, so it learns from
other bytes than the text's."""

from __future__ import annotations

import unicodedata

from spec.oracle import core
from spec.oracle.core import build_vocab, decode, encode, get_stats, merge  # noqa: F401

MISTAKE_CLAIMS: tuple[str, ...] = ("bytes.no-normalization",)


def train(text: str, vocab_size: int) -> dict[tuple[int, int], int]:
    """The oracle's core train, on a 'cleaned' text."""
    return core.train(unicodedata.normalize("NFC", text.replace("\r\n", "\n")), vocab_size)
