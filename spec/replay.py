"""Replay a merge table over a whole corpus fast, to read off what training ended with.

Each id becomes one character, so a merge is ``str.replace`` of a two-character string:
Python scans left to right and never overlaps matches, exactly the rule of ``merge``.
The spec uses this to measure an implementation's merges on a corpus without depending on
that implementation's encode (which has claims of its own). Ids must stay below 0x10FFFF.

With a split in force (spec/oracle/split.py: the implementation always splits with a pattern), training
ends with each chunk's own sequence, so the replay is made inside the chunks: each distinct chunk once,
the distinct chunks joined by a separator no merge can join across, a pair's count weighted by how often
its chunk occurs. The sequence returned is the chunks' sequences in corpus order, as training leaves it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from spec.fast_chunk_train import distinct_chunks
from spec.oracle import split

Pair = tuple[int, int]

#: Between two distinct chunks in a chunked replay: no id reaches it, so no merge joins two chunks.
SEPARATOR = chr(0x10FFFF)


def as_symbols(text: str) -> str:
    return text.encode("utf-8").decode("latin-1")


def pair_count(symbols: str, pair: Pair) -> int:
    """Occurrences of ``pair`` counted as get_stats counts them (overlaps included)."""
    left, right = chr(pair[0]), chr(pair[1])
    if left != right:
        return symbols.count(left + right)  # distinct symbols cannot overlap
    return sum(len(run) - 1 for run in re.findall(re.escape(left) + "{2,}", symbols))


class _Start:
    """A corpus as a replay starts from: its symbols, whole or (with a split in force) its distinct chunks'."""

    def __init__(self, text: str) -> None:
        self.pattern = split.resolve(None)
        if self.pattern is None:
            self.symbols, self.weights, self.order = as_symbols(text), None, None
        else:
            chunks, self.weights, self.order = distinct_chunks(text, self.pattern)
            self.symbols = SEPARATOR.join(as_symbols(chunk) for chunk in chunks)

    def count(self, symbols: str, pair: Pair) -> int:
        if self.weights is None:
            return pair_count(symbols, pair)
        return sum(weight * pair_count(chunk, pair) for chunk, weight in zip(symbols.split(SEPARATOR), self.weights)
                   if chr(pair[0]) in chunk)

    def ids(self, symbols: str) -> list[int]:
        if self.order is None:
            return [ord(symbol) for symbol in symbols]
        chunks = [[ord(symbol) for symbol in chunk] for chunk in symbols.split(SEPARATOR)]
        return [idx for index in self.order for idx in chunks[index]]


def _apply(symbols: str, pair: Pair, idx: int) -> str:
    if idx >= ord(SEPARATOR):
        raise ValueError(f"a replay takes ids below {ord(SEPARATOR)}, not {idx}")
    return symbols.replace(chr(pair[0]) + chr(pair[1]), chr(idx))


def replay(text: str, merges: Iterable[tuple[Pair, int]], *, counts: bool = False) -> tuple[list[int], list[int]]:
    """The sequence after applying ``merges`` in order, and (if asked) each pair's count just before its merge."""
    start = _Start(text)
    symbols, seen = start.symbols, []
    for pair, idx in merges:
        if counts:
            seen.append(start.count(symbols, pair))
        symbols = _apply(symbols, pair, idx)
    return start.ids(symbols), seen


class Replayer:
    """Replays of growing prefixes of one merge table over one text, each continuing the last.

    The corpus claims read a corpus under 512, 1024, 2048 and 4096 merges of one table; the
    smaller tables are prefixes of the larger, so each replay only applies the merges the
    previous one had not. A table that does not extend the last one starts afresh. The split in
    force when it is made is the one it replays under.
    """

    def __init__(self, text: str) -> None:
        self._start = _Start(text)
        self._symbols = self._start.symbols
        self._applied: list[tuple[Pair, int]] = []

    def after(self, merges: Iterable[tuple[Pair, int]]) -> list[int]:
        """The sequence after applying ``merges`` in order to the text."""
        merges = list(merges)
        if merges[:len(self._applied)] != self._applied:
            self._symbols, self._applied = self._start.symbols, []
        symbols = self._symbols
        for pair, idx in merges[len(self._applied):]:
            symbols = _apply(symbols, pair, idx)
        self._symbols, self._applied = symbols, merges
        return self._start.ids(symbols)
