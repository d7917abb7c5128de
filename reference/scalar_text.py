"""Turning any Python ``str`` into text that has a UTF-8 form, the way tiktoken does.

A Python string may hold surrogate code points (U+D800..U+DFFF), which UTF-8 cannot
encode. tiktoken repairs such a string before encoding it: a high surrogate directly
followed by a low one is read as the character that pair spells in UTF-16, and every
other surrogate becomes U+FFFD. The reference does the same wherever text enters, so
``encode`` and ``train`` accept every string and agree with tiktoken on all of them.
"""

from __future__ import annotations

import re

__all__ = ["scalar_text", "utf8_bytes", "original_position"]

_SURROGATE = re.compile("[\ud800-\udfff]")


def scalar_text(text: str) -> str:
    """``text`` itself if it has no surrogate, else repaired as tiktoken repairs it."""
    if _SURROGATE.search(text) is None:
        return text
    return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")


def utf8_bytes(text: str) -> bytes:
    """The UTF-8 bytes of ``scalar_text(text)``, without a scan when the text is clean."""
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        return scalar_text(text).encode("utf-8")


def original_position(text: str, position: int) -> int:
    """Where character ``position`` of ``scalar_text(text)`` starts in ``text``.

    Repair only shortens a text by joining surrogate pairs, one character each.
    ``position`` is a character of the repaired text, so every character walked over
    before it has a successor in ``text``.
    """
    i = 0
    for _ in range(position):
        pair = "\ud800" <= text[i] <= "\udbff" and "\udc00" <= text[i + 1] <= "\udfff"
        i += 2 if pair else 1
    return i
