"""Known-wrong: encode has GPT-2's ``<|endoftext|>`` hard-coded, so with no special token given its string is still
one id of its own, 50256, where it should be 13 bytes of text (ninth round: a minbpe-style class kept GPT-4's
specials registered by default and refused their text when none was asked)."""

from __future__ import annotations

from tests.implementations._rehome import oracle_with

MISTAKE_CLAIMS: tuple[str, ...] = ("encode.no-implicit-specials",)

globals().update(oracle_with(globals()))
_encode = encode  # noqa: F821  (set just above)

#: The special the encoder always knows.
HARD_CODED = {"<|endoftext|>": 50256}


def encode(text: str, merges: dict, *, special_tokens=None, **options) -> list[int]:
    """The oracle's encode, with ``<|endoftext|>`` always allowed when no special is given."""
    if not special_tokens:
        return _encode(text, merges, special_tokens=HARD_CODED, allowed_special="all",
                       **{key: value for key, value in options.items() if key == "pattern"})
    return _encode(text, merges, special_tokens=special_tokens, **options)
