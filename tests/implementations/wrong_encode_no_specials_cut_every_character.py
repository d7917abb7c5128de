"""Known-wrong: encode cuts its text at the specials it is given, and given none at all cuts between every
character, so no merge is ever applied across two of them; with specials it encodes right (tenth round, development:
a CS336 tokenizer whose cut without specials left each character alone was charged to four encode claims)."""

from __future__ import annotations

from tests.implementations._rehome import oracle_with

MISTAKE_CLAIMS: tuple[str, ...] = ("encode.no-implicit-specials",)

globals().update(oracle_with(globals()))
_encode = encode  # noqa: F821  (set just above)


def encode(text: str, merges: dict, *, special_tokens=None, **options) -> list[int]:
    """The oracle's encode, each character on its own when no special token is given."""
    if not special_tokens:
        return [i for character in text for i in _encode(character, merges, **options)]
    return _encode(text, merges, special_tokens=special_tokens, **options)
