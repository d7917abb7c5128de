"""Known-wrong: save writes straight into the target, so a save that fails part-way leaves a half-written file."""

from __future__ import annotations

from tests.implementations.textbook_production import *  # noqa: F403
from tests.implementations import textbook_production

MISTAKE_CLAIMS: tuple[str, ...] = ("persist.atomic-save",)


def save(path, merges, *, pattern=None, special_tokens=None):
    """Opens the target for writing first, then writes line by line as it goes."""
    with open(path, "w", encoding="utf-8", newline="") as handle:
        handle.write(textbook_production.VERSION + "\n")
        for line in textbook_production.format_lines(merges, pattern, special_tokens)[1:]:
            handle.write(line + "\n")
