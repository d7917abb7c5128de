"""Known-wrong: words are spelled without the end-of-word marker, whatever end_of_word says."""

from __future__ import annotations

from tests.implementations import textbook_words
from tests.implementations._rehome import rehome
from tests.implementations.textbook_words import *  # noqa: F403

# The claim naming the mistake first; then claims whose documented values this breaks too.
MISTAKE_CLAIMS: tuple[str, ...] = (
    "words.toy-merges",
    "words.toy-segmentation",
    "words.unseen",
    "words.reverse-order",
    "words.budget-table",
    "words.textbook",
    "words.segmentation-replays",
)
# Claims that fail or pass depending on the example a test picks.
ALSO_MAY_FAIL: tuple[str, ...] = ()


def spell(word: str, end_of_word: str | None) -> list[str]:
    """Only the characters: the marker is forgotten."""
    return list(word)


train_words = rehome(textbook_words.train_words, globals())
segment_word = rehome(textbook_words.segment_word, globals())
