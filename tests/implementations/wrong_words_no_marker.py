"""Known-wrong: words are spelled without the end-of-word marker, whatever end_of_word says."""

from __future__ import annotations

from spec.oracle import words
from spec.oracle.core import build_vocab, decode, encode, get_stats, merge  # noqa: F401
from spec.oracle.ties import train  # noqa: F401
from tests.implementations._rehome import rehome

# The claim naming the mistake first; then claims whose documented values this breaks too.
MISTAKE_CLAIMS: tuple[str, ...] = (
    "words.toy-merges",
    "words.unseen",
    "words.reverse-order",
    "words.budget-table",
    "words.textbook",
    "words.segmentation-replays",
)


def spell(word: str, end_of_word: str | None) -> list[str]:
    """Only the characters: the marker is forgotten."""
    return list(word)


spelled = rehome(words.spelled, globals())
train_words = rehome(words.train_words, globals())
segment_word = rehome(words.segment_word, globals())
