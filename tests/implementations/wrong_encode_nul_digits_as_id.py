"""Known-wrong: a text that is NUL followed by digits is read as a token id (a port's protocol shortcut for
"already an id"), so ``encode("\\x0012", {})`` gives ``[12]``, not ``[0, 49, 50]`` (issue 37, kind 6)."""

from __future__ import annotations

from spec.oracle import core
from spec.oracle.core import build_vocab, decode, get_stats, merge, train  # noqa: F401

MISTAKE_CLAIMS: tuple[str, ...] = ("bytes.base-256",)


def encode(text: str, merges: dict[tuple[int, int], int]) -> list[int]:
    if text[:1] == "\x00" and text[1:].isdigit():
        return [int(text[1:])]
    return core.encode(text, merges)
