"""Special tokens: finding them in text and applying the allowed / disallowed policy.

A special token is a string with a reserved id beyond the merges. Where its string
occurs in the text to encode, the policy decides: allowed gives the id, disallowed (the
default, as in tiktoken) raises, and a special that is neither is ordinary text. Only
allowed and disallowed specials are looked for; scanning from the left, the first place
where one starts wins, and among those starting there the longest.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from functools import lru_cache
from itertools import zip_longest

import regex

__all__ = ["documents", "split_special"]

Policy = Collection[str] | str  # "all" or a collection of special strings


def _policy(special_tokens: Mapping[str, int], allowed: Policy,
            disallowed: Policy) -> tuple[frozenset[str], frozenset[str]]:
    """The allowed and the disallowed specials, as sets of strings that are special tokens."""
    known = frozenset(special_tokens)
    allowed_set = known if allowed == "all" else known & frozenset(_names(allowed, "allowed_special"))
    disallowed_set = known if disallowed == "all" else known & frozenset(_names(disallowed, "disallowed_special"))
    return allowed_set, disallowed_set - allowed_set


def _names(policy: Policy, name: str) -> Collection[str]:
    if isinstance(policy, str):
        raise ValueError(f"{name} must be 'all' or a collection of special strings, not the string {policy!r}")
    return policy


@lru_cache(maxsize=64)
def _finder(specials: frozenset[str]) -> regex.Pattern:
    """One regex for all looked-for specials, longest first so the longest wins at a position."""
    ordered = sorted(specials, key=lambda s: (-len(s), s))
    return regex.compile("|".join(regex.escape(s) for s in ordered))


def split_special(text: str, special_tokens: Mapping[str, int], allowed_special: Policy,
                  disallowed_special: Policy) -> list[str | int]:
    """Cut ``text`` into plain pieces (str) and allowed specials' ids (int), in order.

    Raises ValueError naming the first disallowed special found and its character position.
    """
    allowed, disallowed = _policy(special_tokens, allowed_special, disallowed_special)
    looked_for = allowed | disallowed
    if not looked_for or not text:
        return [text] if text else []
    pieces: list[str | int] = []
    start = 0
    for match in _finder(looked_for).finditer(text):
        special = match.group()
        if special in disallowed:
            raise ValueError(
                f"disallowed special token {special!r} at position {match.start()} of the text:"
                " pass it in allowed_special to encode it as its id, or leave it out of"
                " disallowed_special to encode it as plain text")
        if match.start() > start:
            pieces.append(text[start:match.start()])
        pieces.append(special_tokens[special])
        start = match.end()
    if start < len(text):
        pieces.append(text[start:])
    return pieces


def documents(text: str, specials: frozenset[str]) -> list[tuple[int, str]]:
    """The text between the specials found in it (the longest where several start; ``specials`` not empty),
    each with the position where it starts: what train learns from, a document each, the specials left out.
    A piece may be empty (two specials back to back): it holds no pair."""
    bounds = [0]
    for match in _finder(specials).finditer(text):
        bounds += match.span()
    return [(start, text[start:end]) for start, end in zip_longest(bounds[::2], bounds[1::2])]  # the last to the end
