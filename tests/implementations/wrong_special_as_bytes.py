"""Known-wrong: encode ignores special tokens, so a special's string is split into its bytes like any text."""

from __future__ import annotations

from tests.implementations.textbook_production import *  # noqa: F403
from tests.implementations import textbook_production

MISTAKE_CLAIMS: tuple[str, ...] = ("special.atomic", "special.policy")


def encode(text, merges, *, pattern=None, special_tokens=None, allowed_special=frozenset(), disallowed_special="all"):
    """Never looks for specials."""
    return textbook_production.encode(text, merges, pattern=pattern)
