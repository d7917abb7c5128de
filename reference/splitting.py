"""Cutting text into chunks with a split pattern: the pre-tokenization step.

Training and encoding both call this, so they agree on what a chunk is: each non-empty
match of the pattern (the ``regex`` module's syntax, which has ``\\p{L}`` and possessive
quantifiers), in text order. The matches must cover the text: a character in no match
would vanish from the tokens without a word, so it is a ``ValueError`` (``UncoveredText``)
naming its position. The published patterns cover every text. (tiktoken drops such text
silently; the contract does not.)
"""

from __future__ import annotations

from functools import lru_cache

import regex

__all__ = ["compile_pattern", "split", "whole_matches", "UncoveredText"]


class UncoveredText(ValueError):
    """A character that no match of the split pattern covers, and its position in the text."""

    def __init__(self, pattern: str, position: int, character: str) -> None:
        super().__init__(
            f"the split pattern {pattern!r} does not cover the text: the character {character!r} at"
            f" position {position} is in no match, and would be lost; a split pattern must match"
            " every character (the published patterns do)")
        self.pattern, self.position, self.character = pattern, position, character

    def shifted(self, offset: int) -> UncoveredText:
        """The same error for a text in which this one's text starts at ``offset``."""
        return UncoveredText(self.pattern, self.position + offset, self.character)


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
    """Every whole match of ``pattern`` in ``text``, empty ones included; they cover ``text``.

    For callers that can ignore an empty chunk at no cost (an encoder maps it to no
    ids), this saves ``split``'s extra pass over a large text. Matches never overlap and
    come in order, so they cover the text exactly when their lengths add up to its length.
    """
    compiled = compile_pattern(pattern)
    if compiled.groups:  # findall would return the groups, not the whole matches
        matches = [match.group() for match in compiled.finditer(text)]
    else:
        matches = compiled.findall(text)
    if sum(map(len, matches)) != len(text):
        position = _first_uncovered(compiled, text)
        raise UncoveredText(pattern, position, text[position])
    return matches


def _first_uncovered(compiled: regex.Pattern, text: str) -> int:
    """The position of the first character outside every match (the caller knows there is one)."""
    covered = 0
    for match in compiled.finditer(text):
        if match.start() > covered:
            return covered
        covered = max(covered, match.end())
    return covered
