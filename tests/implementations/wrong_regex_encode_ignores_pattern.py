"""Known-wrong: encode ignores the split pattern, so a merge can join the end of one chunk to the next."""

from __future__ import annotations

from spec import oracle
from spec.oracle.chunks import train  # noqa: F401
from spec.oracle.core import decode, get_stats, merge  # noqa: F401
from spec.oracle.persist import load, save  # noqa: F401
from spec.oracle.special import build_vocab  # noqa: F401
from spec.oracle.stream import StreamDecoder  # noqa: F401

MISTAKE_CLAIMS: tuple[str, ...] = ("regex.no-cross-chunk",)


def encode(text, merges, *, pattern=None, **special):
    """Encodes as if no pattern had been given."""
    return oracle.encode(text, merges, **special)
