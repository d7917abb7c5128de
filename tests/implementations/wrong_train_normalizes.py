"""Known-wrong: train folds CRLF to LF and normalises to NFC before taking the bytes, so it learns from other bytes than the text's."""

# mypy: disable-error-code="no-redef"
from __future__ import annotations

import unicodedata

from tests.implementations import textbook
from tests.implementations.textbook import *  # noqa: F403

MISTAKE_CLAIMS: tuple[str, ...] = ("bytes.no-normalization",)
ALSO_MAY_FAIL: tuple[str, ...] = ("train.tie-recorded", "encode.replays-training", "roundtrip.any-string")


def train(text: str, vocab_size: int) -> dict[tuple[int, int], int]:
    """The textbook, on a 'cleaned' text."""
    return textbook.train(unicodedata.normalize("NFC", text.replace("\r\n", "\n")), vocab_size)
