"""Known-wrong: encode ignores special tokens, so a special's string is split into its bytes like any text."""

from __future__ import annotations

from spec import oracle
from spec.oracle.chunks import train  # noqa: F401
from spec.oracle.core import decode, get_stats, merge  # noqa: F401
from spec.oracle.persist import load, save  # noqa: F401
from spec.oracle.special import build_vocab  # noqa: F401
from spec.oracle.stream import StreamDecoder  # noqa: F401

MISTAKE_CLAIMS: tuple[str, ...] = ("special.atomic", "special.policy")


def encode(text, merges, *, pattern=None, special_tokens=None, allowed_special=frozenset(), disallowed_special="all"):
    """Never looks for specials."""
    return oracle.encode(text, merges, pattern=pattern)
