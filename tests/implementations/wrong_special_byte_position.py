"""Known-wrong: a refused special's error gives its position as a UTF-8 byte offset, not as a character index."""

from __future__ import annotations

from spec.oracle import special
from spec.oracle.chunks import train  # noqa: F401
from spec.oracle.core import decode, get_stats, merge  # noqa: F401
from spec.oracle.persist import load, save  # noqa: F401
from spec.oracle.special import build_vocab  # noqa: F401
from spec.oracle.stream import StreamDecoder  # noqa: F401
from tests.implementations._rehome import rehome

MISTAKE_CLAIMS: tuple[str, ...] = ("special.policy",)


def split_special(text, special_tokens, allowed, disallowed):
    """The oracle's search, reporting where the special starts in ``text.encode()``."""
    try:
        return special.split_special(text, special_tokens, allowed, disallowed)
    except ValueError:
        allowed = set(special_tokens) if allowed == "all" else set(allowed) & set(special_tokens)
        disallowed = (set(special_tokens) if disallowed == "all" else set(disallowed)) - allowed
        data = text.encode("utf-8")
        found = min((data.find(s.encode("utf-8")), s) for s in disallowed if s in text)
        raise ValueError(f"disallowed special token {found[1]!r} at position {found[0]}") from None


encode = rehome(special.encode, globals())
