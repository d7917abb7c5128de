"""Known-wrong: each distinct word counts once, so pair counts ignore how often a word occurs."""

from __future__ import annotations

from collections.abc import Mapping

from spec.oracle import words
from spec.oracle.core import build_vocab, decode, encode, get_stats, merge  # noqa: F401
from spec.oracle.ties import train  # noqa: F401
from spec.oracle.words import segment_word  # noqa: F401
from tests.implementations._rehome import rehome

# The claim naming the mistake first; then claims whose documented values this breaks too.
MISTAKE_CLAIMS: tuple[str, ...] = ("words.toy-merges", "words.budget-table", "words.low-lower-newest", "words.textbook")


def word_counts(corpus: str | Mapping[str, int]) -> dict[str, int]:
    """The distinct words in order of first appearance, each with weight 1."""
    return dict.fromkeys(words.word_counts(corpus), 1)


spelled = rehome(words.spelled, globals())
train_words = rehome(words.train_words, globals())
