"""Known-wrong: save builds the whole text first, then writes it straight into the target.

Nothing can fail while the text is built, so a table that breaks part-way through leaves
the old file alone; but a write that the disk cuts short (full, or over a size limit)
has already truncated the old file and leaves half of the new one.
"""

from __future__ import annotations

from tests.implementations.textbook_production import *  # noqa: F403
from tests.implementations import textbook_production

MISTAKE_CLAIMS: tuple[str, ...] = ("persist.atomic-save",)


def save(path, merges, *, pattern=None, special_tokens=None):
    """Every line is formatted before the file is opened, then the file is rewritten in place."""
    text = "\n".join(textbook_production.format_lines(merges, pattern, special_tokens)) + "\n"
    with open(path, "w", encoding="utf-8", newline="") as handle:
        handle.write(text)
