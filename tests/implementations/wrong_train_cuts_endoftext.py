"""Known-wrong: train cuts a hard-coded ``<|endoftext|>`` out of the text even when no special tokens were asked
for, so it learns from other bytes than the text's (issue 37, kind 6)."""

from __future__ import annotations

from spec.oracle import core
from spec.oracle.core import build_vocab, decode, encode, get_stats, merge  # noqa: F401

MISTAKE_CLAIMS: tuple[str, ...] = ("train.no-implicit-specials",)


def train(text: str, vocab_size: int) -> dict[tuple[int, int], int]:
    """The oracle's train on the documents between end-of-text markers, joined."""
    return core.train("".join(text.split("<|endoftext|>")), vocab_size)
