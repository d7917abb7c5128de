"""Known-wrong: tie_rule="lowest-pair" takes the greatest pair of ids among the tied, not the smallest."""

from __future__ import annotations

from spec.oracle import ties
from spec.oracle.core import build_vocab, decode, encode, get_stats, merge  # noqa: F401
from spec.oracle.words import segment_word, train_words  # noqa: F401
from tests.implementations._rehome import rehome

# The claim naming the mistake first; then claims whose documented values this breaks too.
MISTAKE_CLAIMS: tuple[str, ...] = ("ties.lowest-pair",)


def choose_tie(rule: str, tied: list[tuple[int, int]], vocab: dict[int, bytes]) -> tuple[int, int]:
    """The oracle's choice, with ``max`` where lowest-pair needs ``min``."""
    if rule == "lowest-pair":
        return max(tied)
    return ties.choose_tie(rule, tied, vocab)


train_pieces = rehome(ties.train_pieces, globals())
train = rehome(ties.train, globals())
