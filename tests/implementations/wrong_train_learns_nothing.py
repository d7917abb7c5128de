"""Known-wrong (probe): train returns an empty table for every text, as a CS336 trainer does whose pre-tokenizer
splits on ``"|".join(special_tokens)`` and so makes every character its own chunk when no special token is given
(issue 37: the failure is one early stop on every level, not every claim of the tests that train as a means)."""

from __future__ import annotations

from tests.implementations._rehome import oracle_with

MISTAKE_CLAIMS: tuple[str, ...] = ("train.no-early-stop",)

Pair = tuple[int, int]


def train_pieces(pieces: list[list[int]], vocab_size: int, tie_rule: str) -> dict[Pair, int]:
    """The oracle's training loop with every chunk cut to single bytes: no pair is ever seen, nothing is learned."""
    return {}


globals().update(oracle_with(globals()))
