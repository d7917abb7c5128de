"""Known-wrong: encode cuts its text at ``"|".join(special_tokens)``; given an empty collection of specials, not
None, that alternation is empty and cuts between every character, so no merge is ever applied across two of them
(ninth round: a CS336 tokenizer given ``special_tokens=[]``)."""

from __future__ import annotations

from tests.implementations._rehome import oracle_with

MISTAKE_CLAIMS: tuple[str, ...] = ("encode.no-implicit-specials",)

globals().update(oracle_with(globals()))
_encode = encode  # noqa: F821  (set just above)


def encode(text: str, merges: dict, *, special_tokens=None, **options) -> list[int]:
    """The oracle's encode, each character on its own when the specials given are an empty collection."""
    if special_tokens is not None and not special_tokens:
        return [i for character in text for i in _encode(character, merges, **options)]
    return _encode(text, merges, special_tokens=special_tokens, **options)
