"""Known-wrong: encode ignores the split pattern, so a merge can join the end of one chunk to the next."""

from __future__ import annotations

from tests.implementations.textbook_production import *  # noqa: F403
from tests.implementations import textbook_production

MISTAKE_CLAIMS: tuple[str, ...] = ("regex.no-cross-chunk",)


def encode(text, merges, *, pattern=None, **special):
    """Encodes as if no pattern had been given."""
    return textbook_production.encode(text, merges, **special)
