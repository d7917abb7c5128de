"""Known-wrong: train returns its merges sorted by pair, so the dict is not in training order."""

# mypy: disable-error-code="no-redef"
from __future__ import annotations

from tests.implementations import textbook
from tests.implementations.textbook import *  # noqa: F403

MISTAKE_CLAIMS: tuple[str, ...] = ("train.ids-from-256", "train.tie-recorded")


def train(text: str, vocab_size: int) -> dict[tuple[int, int], int]:
    """Train correctly, then 'tidy' the table by sorting it by pair."""
    return dict(sorted(textbook.train(text, vocab_size).items()))
