"""A plain implementation of what the pretrained level needs, for the suite's own tests.

The textbook BPE, run chunk by chunk behind a split pattern, with special tokens cut out
first under tiktoken's policy. Slow and obvious on purpose: the known-wrong pretrained
modules start from it.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping

import regex

from tests.implementations import textbook
from tests.implementations.textbook import *  # noqa: F403

__all__ = ["get_stats", "merge", "train", "build_vocab", "decode", "encode"]

Pair = tuple[int, int]


def build_vocab(merges: Mapping[Pair, int], special_tokens: Mapping[str, int] | None = None) -> dict[int, bytes]:
    """The textbook vocabulary, plus each special token's id mapped to its UTF-8 text."""
    vocab = textbook.build_vocab(dict(merges))
    for text, idx in (special_tokens or {}).items():
        vocab[idx] = text.encode("utf-8")
    return vocab


def encode_chunk(chunk: str, merges: Mapping[Pair, int]) -> list[int]:
    """One chunk, merged by lowest rank (the textbook encode)."""
    return textbook.encode(chunk, merges)


def split(text: str, pattern: str | None) -> list[str]:
    """The chunks the pattern finds, or the whole text when there is no pattern."""
    if pattern is None:
        return [text] if text else []
    text = textbook.utf8(text).decode("utf-8")  # surrogates repaired as tiktoken repairs them
    return [match.group() for match in regex.finditer(pattern, text)]


def encode(text: str, merges: Mapping[Pair, int], *, pattern: str | None = None,
           special_tokens: Mapping[str, int] | None = None,
           allowed_special: str | Collection[str] = frozenset(),
           disallowed_special: str | Collection[str] = "all") -> list[int]:
    """Cut out the allowed special tokens, then encode each chunk of the rest on its own."""
    specials = dict(special_tokens or {})
    allowed = set(specials) if allowed_special == "all" else set(allowed_special) & set(specials)
    disallowed = set(specials) - allowed if disallowed_special == "all" else set(disallowed_special)
    for token in disallowed:
        if token in text:
            raise ValueError(f"text contains the special token {token!r}, which is not allowed")
    ids: list[int] = []
    parts = regex.split("(" + "|".join(map(regex.escape, sorted(allowed, key=len, reverse=True))) + ")",
                        text) if allowed else [text]
    for i, part in enumerate(parts):
        if i % 2:  # the split's captured separators are the special tokens
            ids.append(specials[part])
        else:
            for chunk in split(part, pattern):
                ids.extend(encode_chunk(chunk, merges))
    return ids
