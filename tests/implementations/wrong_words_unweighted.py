"""Known-wrong: each distinct word counts once, so pair counts ignore how often a word occurs."""

from __future__ import annotations

from collections.abc import Mapping

from tests.implementations import textbook_words
from tests.implementations._rehome import rehome
from tests.implementations.textbook_words import *  # noqa: F403

# The claim naming the mistake first; then claims whose documented values this breaks too.
MISTAKE_CLAIMS: tuple[str, ...] = ("words.toy-merges", "words.budget-table", "words.low-lower-newest", "words.textbook")
# Claims that fail or pass depending on the example a test picks.
ALSO_MAY_FAIL: tuple[str, ...] = ("words.toy-segmentation",)


def word_counts(corpus: str | Mapping[str, int]) -> dict[str, int]:
    """The distinct words in order of first appearance, each with weight 1."""
    return dict.fromkeys(textbook_words.word_counts(corpus), 1)


train_words = rehome(textbook_words.train_words, globals())
