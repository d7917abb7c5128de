"""Known-wrong: where specials overlap, the one listed first wins, not the longest."""

from __future__ import annotations

import regex

from spec.oracle import special
from spec.oracle.chunks import train  # noqa: F401
from spec.oracle.core import decode, get_stats, merge  # noqa: F401
from spec.oracle.persist import load, save  # noqa: F401
from spec.oracle.special import build_vocab  # noqa: F401
from spec.oracle.stream import StreamDecoder  # noqa: F401
from tests.implementations._rehome import rehome

MISTAKE_CLAIMS: tuple[str, ...] = ("special.overlap-rule",)


def split_special(text, special_tokens, allowed, disallowed):
    """One alternation in the order the specials were given: a regex takes the first alternative that matches."""
    allowed = set(special_tokens) if allowed == "all" else set(allowed) & set(special_tokens)
    disallowed = (set(special_tokens) if disallowed == "all" else set(disallowed)) - allowed
    looked_for = [s for s in special_tokens if s in allowed | disallowed]
    if not looked_for:
        return [text] if text else []
    pieces, start = [], 0
    for match in regex.finditer("|".join(regex.escape(s) for s in looked_for), text):
        if match.group() in disallowed:
            raise ValueError(f"disallowed special token {match.group()!r} at position {match.start()}")
        pieces += [text[start:match.start()], special_tokens[match.group()]]
        start = match.end()
    return [piece for piece in pieces + [text[start:]] if piece != ""]


encode = rehome(special.encode, globals())
