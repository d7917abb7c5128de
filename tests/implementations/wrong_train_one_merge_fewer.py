"""Known-wrong: train learns one merge fewer than asked (``range(256, vocab_size - 1)``), an off-by-one that
leaves the vocabulary one short while pairs are still left (issue 37, kind 6)."""

from __future__ import annotations

from spec.oracle import core
from spec.oracle.core import build_vocab, decode, encode, get_stats, merge  # noqa: F401

MISTAKE_CLAIMS: tuple[str, ...] = ("train.no-early-stop",)


def train(text: str, vocab_size: int) -> dict[tuple[int, int], int]:
    """The oracle's train, one short: a vocab_size of 257 learns nothing."""
    core.check_vocab_size(vocab_size)
    return core.train(text, max(vocab_size - 1, 256))
