"""Cutting text into chunks with a split pattern: the pre-tokenization step.

Training and encoding both call this, so they agree on what a chunk is: each non-empty
match of the pattern (the ``regex`` module's syntax, which has ``\\p{L}`` and possessive
quantifiers), in text order. Text no match covers is dropped, as tiktoken drops it; the
published patterns cover every character.
"""

from __future__ import annotations

from functools import lru_cache

import regex

__all__ = ["compile_pattern", "split", "whole_matches"]


@lru_cache(maxsize=64)
def compile_pattern(pattern: str) -> regex.Pattern:
    """Compile once per pattern; a bad pattern is a ValueError that quotes it."""
    if not isinstance(pattern, str):
        raise TypeError(f"pattern must be a str (a regex pattern), not {type(pattern).__name__}")
    try:
        return regex.compile(pattern)
    except regex.error as error:
        raise ValueError(f"invalid split pattern {pattern!r}: {error}") from None


def split(pattern: str, text: str) -> list[str]:
    """The chunks of ``text``: whole matches of ``pattern``, empty ones left out."""
    return [chunk for chunk in whole_matches(pattern, text) if chunk]


def whole_matches(pattern: str, text: str) -> list[str]:
    """Every whole match of ``pattern`` in ``text``, empty ones included.

    For callers that can ignore an empty chunk at no cost (an encoder maps it to no
    ids), this saves ``split``'s extra pass over a large text.
    """
    compiled = compile_pattern(pattern)
    if compiled.groups:  # findall would return the groups, not the whole matches
        return [match.group() for match in compiled.finditer(text)]
    return compiled.findall(text)
