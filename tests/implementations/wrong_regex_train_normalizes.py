"""Known-wrong: with a split pattern, train normalises the text to NFC (and CRLF to LF) before cutting it into chunks."""

from __future__ import annotations

import unicodedata

from tests.implementations import textbook_production
from tests.implementations.textbook_production import *  # noqa: F403

MISTAKE_CLAIMS: tuple[str, ...] = ("bytes.no-normalization",)
ALSO_MAY_FAIL: tuple[str, ...] = ("regex.chunk-frequency", "regex.roundtrip")


def train(text, vocab_size, *, pattern=None):
    """Without a pattern, the textbook; with one, the chunks of the normalised text."""
    if pattern is not None:
        text = unicodedata.normalize("NFC", text.replace("\r\n", "\n"))
    return textbook_production.train(text, vocab_size, pattern=pattern)
