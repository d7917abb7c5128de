"""Known-wrong: encode first looks the whole text up in the vocabulary and, when its bytes are one token,
emits that id without replaying the merges (the shortcut tiktoken takes per chunk). It agrees with replay on
tables trained by train; it differs on a table where that token is built another way."""

from __future__ import annotations

from spec.oracle import core
from spec.oracle.core import build_vocab, decode, get_stats, merge, train, utf8  # noqa: F401

MISTAKE_CLAIMS: tuple[str, ...] = ("encode.replay-not-lookup",)


def encode(text: str, merges: dict[tuple[int, int], int]) -> list[int]:
    """The whole text's bytes as one token when the table has it; else the oracle's replay."""
    whole = utf8(text)
    if len(whole) > 1:
        for idx, token in build_vocab(merges).items():
            if idx >= 256 and token == whole:
                return [idx]
    return core.encode(text, merges)
