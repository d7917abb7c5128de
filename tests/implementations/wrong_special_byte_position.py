"""Known-wrong: a refused special's error gives its position as a UTF-8 byte offset, not as a character index."""

from __future__ import annotations

from tests.implementations import textbook_production
from tests.implementations._rehome import rehome
from tests.implementations.textbook_production import *  # noqa: F403
from tests.implementations.textbook_production import encode_piece  # noqa: F401  (the re-homed encode calls it)

MISTAKE_CLAIMS: tuple[str, ...] = ("special.policy",)


def split_special(text, special_tokens, allowed, disallowed):
    """The textbook search, reporting where the special starts in ``text.encode()``."""
    try:
        return textbook_production.split_special(text, special_tokens, allowed, disallowed)
    except ValueError:
        allowed = set(special_tokens) if allowed == "all" else set(allowed) & set(special_tokens)
        disallowed = (set(special_tokens) if disallowed == "all" else set(disallowed)) - allowed
        data = text.encode("utf-8")
        found = min((data.find(s.encode("utf-8")), s) for s in disallowed if s in text)
        raise ValueError(f"disallowed special token {found[1]!r} at position {found[0]}") from None


encode = rehome(textbook_production.encode, globals())
