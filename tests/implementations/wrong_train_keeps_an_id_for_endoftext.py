"""Known-wrong: train adds ``<|endoftext|>`` to the specials whenever it is not asked, as a CS336 solution that always
trains with it: the string is cut out of the text and keeps one id, so every training asked none makes one merge
fewer than asked (eleventh round, development: charged to train.no-early-stop in 37 tests)."""

from __future__ import annotations

from spec import oracle
from spec.oracle import core
from spec.oracle.core import build_vocab, decode, encode, get_stats, merge  # noqa: F401

MISTAKE_CLAIMS: tuple[str, ...] = ("train.no-implicit-specials",)

ENDOFTEXT = "<|endoftext|>"


def train(text: str, vocab_size: int, *, special_tokens: list[str] | None = None) -> dict[tuple[int, int], int]:
    """The oracle's train; with ``<|endoftext|>`` not asked, it is added, and takes one id from the merges."""
    asked = list(special_tokens or [])
    if ENDOFTEXT in asked:
        return oracle.train(text, vocab_size, special_tokens=asked)
    core.check_vocab_size(vocab_size)
    return oracle.train(text, max(vocab_size - 1, 256), special_tokens=[*asked, ENDOFTEXT])
