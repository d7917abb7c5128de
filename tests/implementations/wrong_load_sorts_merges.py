"""Known-wrong: load hands back the merges sorted by pair, losing the training order the file kept."""

from __future__ import annotations

from tests.implementations.textbook_production import *  # noqa: F403
from tests.implementations import textbook_production

MISTAKE_CLAIMS: tuple[str, ...] = ("persist.frozen",)


def load(path):
    merges, pattern, specials = textbook_production.load(path)
    return dict(sorted(merges.items())), pattern, specials
