"""Known-wrong: save writes straight into the target, so a save that fails part-way leaves a half-written file."""

from __future__ import annotations

from spec.oracle import persist
from spec.oracle.chunks import train  # noqa: F401
from spec.oracle.core import decode, get_stats, merge  # noqa: F401
from spec.oracle.persist import load  # noqa: F401
from spec.oracle.special import build_vocab, encode  # noqa: F401
from spec.oracle.stream import StreamDecoder  # noqa: F401

MISTAKE_CLAIMS: tuple[str, ...] = ("persist.atomic-save",)


def save(path, merges, *, pattern=None, special_tokens=None):
    """Opens the target for writing first, then writes line by line as it goes."""
    with open(path, "w", encoding="utf-8", newline="") as handle:
        handle.write(persist.VERSION + "\n")
        for line in persist.dumps(merges, pattern, special_tokens).splitlines(keepends=True)[1:]:
            handle.write(line)
