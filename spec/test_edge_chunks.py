"""Level regex: the published split patterns cut every whitespace class, control and BOM as Python's regex does.

``chunky_texts`` holds spaces, newlines and tabs; a port whose regex engine gives ``\\s`` another
meaning (JavaScript's also matches U+FEFF) cuts those the same and passed every level (issue 37,
kind 6). Here the text is rich in every Unicode whitespace class, controls, CR/LF/CRLF and the
BOM; the table is the oracle's, trained on the same text with the same pattern, so every merge
lies inside one of the pattern's chunks, and an encode whose chunks differ gives other ids.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from spec import oracle, strategies
from spec.blame import checking
from spec.compare import expect_equal
from spec.own_cut import not_the_split
from spec.patterns import GPT2_SPLIT_PATTERN, GPT4_SPLIT_PATTERN
from spec.shapes import ids_of

pytestmark = pytest.mark.level("regex")

PATTERNS = {"regex.gpt2-chunks": GPT2_SPLIT_PATTERN, "regex.gpt4-chunks": GPT4_SPLIT_PATTERN}
#: One test per pattern, each under its own claim: a port may cut one pattern right and the other wrong.
BY_PATTERN = pytest.mark.parametrize("claim", [pytest.param(claim, marks=pytest.mark.claim(claim))
                                                for claim in PATTERNS])


@BY_PATTERN
@given(st.one_of(strategies.whitespace_texts, strategies.edge_texts), strategies.vocab_sizes)
def test_every_whitespace_class_is_cut_as_the_published_patterns_cut_it(bpe, claim, text, vocab_size):
    pattern = PATTERNS[claim]
    merges = oracle.train(text, vocab_size, pattern=pattern)
    got = ids_of(bpe.encode(text, dict(merges), pattern=pattern))
    _expect_the_patterns_cut(bpe, claim, text, merges, pattern, got)


def _expect_the_patterns_cut(bpe, claim: str, text: str, merges, pattern: str, got: list[int]) -> None:
    """Other ids than the oracle's fail the pattern's claim only when the split can explain them (spec/own_cut.py):
    ids that spell other bytes, or that are the code's own encodings of the pattern's chunks, are another claim's."""
    want = oracle.encode(text, merges, pattern=pattern)
    if got != want and not_the_split(bpe, text, dict(merges), pattern, got):
        return
    with checking(claim):
        expect_equal(got, want, f"ids of {text!r} with the table the pattern's own chunks give", merges=merges)


#: Where a character's class decides a cut: after a space, between letters, doubled before a letter, before a
#: digit, after a symbol, at the end, before a newline.
PLACES = (" {w}x", "a{w}b", "x{w}{w}y", "{w}1", ".{w}", "a{w}", "{w}\n", "a {w}{w} b")


@BY_PATTERN
def test_each_whitespace_class_and_control_in_each_place_is_cut_as_the_published_patterns_cut_it(bpe, claim):
    """Exhaustive over the few characters engines disagree on: every whitespace class and control, in each place."""
    pattern = PATTERNS[claim]
    for character in dict.fromkeys((*strategies.WHITESPACE, *strategies.CONTROLS)):
        for place in PLACES:
            text = place.format(w=character)
            merges = oracle.train(text, 256 + 3 * len(text), pattern=pattern)
            got = ids_of(bpe.encode(text, dict(merges), pattern=pattern))
            _expect_the_patterns_cut(bpe, claim, text, merges, pattern, got)
