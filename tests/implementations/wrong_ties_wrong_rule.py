"""Known-wrong: tie_rule="lowest-pair" takes the greatest pair of ids among the tied, not the smallest."""

from __future__ import annotations

from tests.implementations import textbook_words
from tests.implementations._rehome import rehome
from tests.implementations.textbook_words import *  # noqa: F403

# The claim naming the mistake first; then claims whose documented values this breaks too.
MISTAKE_CLAIMS: tuple[str, ...] = ("ties.lowest-pair", "ties.disagree")
# Claims that fail or pass depending on the example a test picks.
ALSO_MAY_FAIL: tuple[str, ...] = ()


def choose_tie(rule: str, tied: list[tuple[int, int]], vocab: dict[int, bytes]) -> tuple[int, int]:
    """The textbook choice, with ``max`` where lowest-pair needs ``min``."""
    if rule == "lowest-pair":
        return max(tied)
    return textbook_words.choose_tie(rule, tied, vocab)


train = rehome(textbook_words.train, globals())
