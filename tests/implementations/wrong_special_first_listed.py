"""Known-wrong: where specials overlap, the one listed first wins, not the longest."""

from __future__ import annotations

import regex

from tests.implementations._rehome import rehome
from tests.implementations.textbook_production import *  # noqa: F403
from tests.implementations import textbook_production
from tests.implementations.textbook_production import encode_piece  # noqa: F401  (the re-homed encode calls it)

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


encode = rehome(textbook_production.encode, globals())
