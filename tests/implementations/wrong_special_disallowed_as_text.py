"""Known-wrong: a disallowed special is silently encoded as plain text instead of raising ValueError."""

from __future__ import annotations

from tests.implementations.textbook_production import *  # noqa: F403
from tests.implementations import textbook_production

MISTAKE_CLAIMS: tuple[str, ...] = ("special.policy",)


def encode(text, merges, *, pattern=None, special_tokens=None, allowed_special=frozenset(), disallowed_special="all"):
    """Looks for allowed specials only; anything else is text."""
    return textbook_production.encode(text, merges, pattern=pattern, special_tokens=special_tokens,
                                      allowed_special=allowed_special, disallowed_special=set())
