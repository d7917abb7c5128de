"""The small inputs, every one of them, before any random search (``bpe-kata diff``, issue 37).

A divergence confined to one rare byte pair (an implementation that swaps two ids only after
ESC DEL, a port whose pattern reads U+FEFF as a space) is one input in tens of thousands: a
random search finds it after minutes, or not at all. The inputs here are few enough to try
them all in a second or two in process: to encode, every text of one or two UTF-8 bytes
(each ASCII character, each two-byte character, each two ASCII characters), every unit the
spec's edge generators name alone (spec/strategies.py), and every text of two of the table's
tokens; to train (one pair at most in two bytes), each ASCII character and every two of a few
edge characters; to decode, every single id. A divergence found here is shrunk by leaving characters out one
at a time while the sides still part, so it is as small as Hypothesis would make it.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

from bpe_kata.tools.diff_search import Divergence, compare
from bpe_kata.tools.diff_sides import Side
from bpe_kata.tools.tables import Table
from spec import strategies as spec_st

#: How many of the table's first tokens are paired with each other (64 of a 320 table: all of them).
PAIRED_TOKENS = 96
#: How many ids decode tries one by one.
SINGLE_IDS = 4096


def small_texts() -> Iterator[str]:
    """Every text whose UTF-8 form is one or two bytes, then the spec's edge units alone."""
    yield from (chr(c) for c in range(0x80))
    yield from (chr(c) for c in range(0x80, 0x800))
    yield from (chr(a) + chr(b) for a in range(0x80) for b in range(0x80))
    yield from (*spec_st.EDGE_UNITS, *spec_st.WHITESPACE)


def token_pairs(table: Table) -> Iterator[str]:
    """Every two of the table's first tokens, their bytes joined, read as UTF-8 with replacement."""
    from spec import oracle

    vocab = oracle.build_vocab(dict(table.merges))
    tokens = [vocab[idx] for idx in list(table.merges.values())[:PAIRED_TOKENS]]
    for first in tokens:
        for second in tokens:
            yield (first + second).decode("utf-8", "replace")


def inputs(operation: str, table: Table | None) -> Iterator[dict]:
    if operation == "train":  # two bytes hold one pair, so training asks less: every unit, two of a few
        few = "ab \n\r\t\x00\x7f09'é🌍\ufeff\u00a0\u3000"
        texts = (*(chr(c) for c in range(0x80)), *(x + y for x in few for y in few), *spec_st.EDGE_UNITS)
        yield from ({"text": text, "vocab_size": 257} for text in texts)
    elif operation == "encode":
        yield from ({"text": text} for text in small_texts())
        if table is not None:
            yield from ({"text": text} for text in token_pairs(table))
    elif operation == "decode" and table is not None:
        top = max([255, *table.merges.values(), *table.special_tokens.values()])
        yield from ({"ids": [i]} for i in range(min(top + 1, SINGLE_IDS)))


def sweep(a: Side, b: Side, operation: str, tables: tuple[Table | None, Table | None], *, deadline: float,
          counter: dict[str, int]) -> Divergence | None:
    """The first small input on which the sides part, shrunk; None when none does (or the time box ran out)."""
    for given in inputs(operation, tables[0]):
        if time.monotonic() > deadline:
            return None
        counter[operation] = counter.get(operation, 0) + 1
        found = compare(a, b, operation, given, tables)
        if found is not None:
            return _shrunk(a, b, found, tables)
    return None


def _shrunk(a: Side, b: Side, found: Divergence, tables) -> Divergence:
    """Leave out one character at a time while the sides still part."""
    if "text" not in found.given:
        return found
    shrinking = True
    while shrinking and len(found.given["text"]) > 1:
        shrinking = False
        text = found.given["text"]
        for at in range(len(text)):
            smaller = compare(a, b, found.operation, {**found.given, "text": text[:at] + text[at + 1:]}, tables)
            if smaller is not None:
                found, shrinking = smaller, True
                break
    return found
