"""Known-wrong: train returns its merges sorted by pair, so the dict is not in training order."""

from __future__ import annotations

from spec.oracle import core
from spec.oracle.core import build_vocab, decode, encode, get_stats, merge  # noqa: F401

MISTAKE_CLAIMS: tuple[str, ...] = ("train.ids-from-256", "train.tie-recorded")


def train(text: str, vocab_size: int) -> dict[tuple[int, int], int]:
    """Train correctly, then 'tidy' the table by sorting it by pair."""
    return dict(sorted(core.train(text, vocab_size).items()))
