"""Known-wrong: train ignores the split pattern and learns merges across chunks ('e ' and the like)."""

from __future__ import annotations

from tests.implementations.textbook_production import *  # noqa: F403
from tests.implementations import textbook

MISTAKE_CLAIMS: tuple[str, ...] = ("regex.no-cross-chunk", "regex.chunk-frequency", "regex.gpt2-chunks")


def train(text, vocab_size, *, pattern=None):
    """Counts pairs over the whole text, whatever the pattern."""
    return textbook.train(text, vocab_size)
