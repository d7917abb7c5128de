"""Replay a merge table over a whole corpus fast, to read off what training ended with.

Each id becomes one character, so a merge is ``str.replace`` of a two-character string:
Python scans left to right and never overlaps matches, exactly the rule of ``merge``.
The spec uses this to measure an implementation's merges on a corpus without depending on
that implementation's encode (which has claims of its own). Ids must stay below 0x110000.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from spec.oracle import split

Pair = tuple[int, int]


def as_symbols(text: str) -> str:
    return text.encode("utf-8").decode("latin-1")


def pair_count(symbols: str, pair: Pair) -> int:
    """Occurrences of ``pair`` counted as get_stats counts them (overlaps included)."""
    left, right = chr(pair[0]), chr(pair[1])
    if left != right:
        return symbols.count(left + right)  # distinct symbols cannot overlap
    return sum(len(run) - 1 for run in re.findall(re.escape(left) + "{2,}", symbols))


def replay(text: str, merges: Iterable[tuple[Pair, int]], *, counts: bool = False) -> tuple[list[int], list[int]]:
    """The sequence after applying ``merges`` in order, and (if asked) each pair's count just before its merge."""
    split.needs_whole_text("the sequence training ends with on a whole corpus")
    symbols, seen = as_symbols(text), []
    for pair, idx in merges:
        if counts:
            seen.append(pair_count(symbols, pair))
        symbols = symbols.replace(chr(pair[0]) + chr(pair[1]), chr(idx))
    return [ord(symbol) for symbol in symbols], seen


class Replayer:
    """Replays of growing prefixes of one merge table over one text, each continuing the last.

    The corpus claims read a corpus under 512, 1024, 2048 and 4096 merges of one table; the
    smaller tables are prefixes of the larger, so each replay only applies the merges the
    previous one had not. A table that does not extend the last one starts afresh.
    """

    def __init__(self, text: str) -> None:
        self._start = as_symbols(text)
        self._symbols = self._start
        self._applied: list[tuple[Pair, int]] = []

    def after(self, merges: Iterable[tuple[Pair, int]]) -> list[int]:
        """The sequence after applying ``merges`` in order to the text."""
        split.needs_whole_text("the sequence training ends with on a whole corpus")
        merges = list(merges)
        if merges[:len(self._applied)] != self._applied:
            self._symbols, self._applied = self._start, []
        symbols = self._symbols
        for pair, idx in merges[len(self._applied):]:
            symbols = symbols.replace(chr(pair[0]) + chr(pair[1]), chr(idx))
        self._symbols, self._applied = symbols, merges
        return [ord(symbol) for symbol in symbols]
