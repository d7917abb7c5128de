"""Known-wrong: a disallowed special is silently encoded as plain text instead of raising ValueError."""

from __future__ import annotations

from spec import oracle
from spec.oracle.chunks import train  # noqa: F401
from spec.oracle.core import decode, get_stats, merge  # noqa: F401
from spec.oracle.persist import load, save  # noqa: F401
from spec.oracle.special import build_vocab  # noqa: F401
from spec.oracle.stream import StreamDecoder  # noqa: F401

MISTAKE_CLAIMS: tuple[str, ...] = ("special.policy",)


def encode(text, merges, *, pattern=None, special_tokens=None, allowed_special=frozenset(), disallowed_special="all"):
    """Looks for allowed specials only; anything else is text."""
    return oracle.encode(text, merges, pattern=pattern, special_tokens=special_tokens,
                         allowed_special=allowed_special, disallowed_special=set())
