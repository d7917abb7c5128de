"""Known-wrong: save builds the whole text first, then writes it straight into the target.

Nothing can fail while the text is built, so a table that breaks part-way through leaves
the old file alone; but a write that the disk cuts short (full, or over a size limit)
has already truncated the old file and leaves half of the new one.
"""

from __future__ import annotations

from spec.oracle import persist
from spec.oracle.chunks import train  # noqa: F401
from spec.oracle.core import decode, get_stats, merge  # noqa: F401
from spec.oracle.persist import load  # noqa: F401
from spec.oracle.special import build_vocab, encode  # noqa: F401
from spec.oracle.stream import StreamDecoder  # noqa: F401

MISTAKE_CLAIMS: tuple[str, ...] = ("persist.atomic-save",)


def save(path, merges, *, pattern=None, special_tokens=None):
    """Every line is formatted before the file is opened, then the file is rewritten in place."""
    text = persist.dumps(merges, pattern, special_tokens)
    with open(path, "w", encoding="utf-8", newline="") as handle:
        handle.write(text)
