"""The reference's train with ``special_tokens``: the chunk trainer over the pieces between the specials.

The spec judges the table with the property checker (any tie rule); here the reference's own table is held to
the oracle's for every tie rule and pattern, with duplicated pieces (weighted once each), pieces that share their
first pairs, lone surrogates beside a cut, and the reference's choices for bad input: a lone str is a TypeError,
an empty or non-str special a ValueError, an uncovered character named at its place in the caller's text.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import reference
from spec import oracle
from spec.patterns import PATTERNS
from spec.tie_rules import TIE_RULES

SPECIALS = ("<|endoftext|>", "<|im|>", "<|im|>start", "<|", "|>", "\n\n", "x")
UNITS = (*SPECIALS, "ab", " ab", "ba", "a", "b", " ", "\n", "é", "你好", "\ud83c", "\udf0d", "12", "!", "aaa")
texts = st.lists(st.sampled_from(UNITS), max_size=30).map("".join)
special_lists = st.lists(st.sampled_from(SPECIALS), max_size=4, unique=True)


@given(texts, special_lists, st.integers(256, 300), st.sampled_from([None, *PATTERNS]),
       st.sampled_from(list(TIE_RULES)))
def test_the_table_is_the_oracles_on_the_pieces(text, specials, vocab_size, pattern, tie_rule):
    keywords = {"pattern": PATTERNS.get(pattern), "tie_rule": tie_rule}
    got = reference.train(text, vocab_size, special_tokens=specials, **keywords)
    assert list(got.items()) == list(oracle.train(text, vocab_size, special_tokens=specials, **keywords).items())


@pytest.mark.parametrize("text, specials, expected", [
    ("hi<|s|>" * 5 + "hi", ["<|s|>"], {(104, 105): 256}),
    ("a<|s|>a<|s|>a", ["<|s|>"], {}),
    ("<|s|>", ["<|s|>"], {}),
    ("", ["<|s|>"], {}),
    ("ab<|im|>startab", ["<|im|>", "<|im|>start"], {(97, 98): 256}),
    ("ab<|im|>startab", ["<|im|>"], {(97, 98): 256, (115, 116): 257, (257, 97): 258, (258, 114): 259,
                                     (259, 116): 260, (260, 256): 261}),
    # a later piece holds a pair more often than the first: counts add up over pieces, not per piece
    ("ab<|s|>cdcdcd<|s|>ab<|s|>ab", ["<|s|>"], {(97, 98): 256, (99, 100): 257, (257, 257): 258, (258, 257): 259}),
])
def test_worked_tables(text, specials, expected):
    assert reference.train(text, 300, special_tokens=specials) == expected


def test_no_specials_is_training_on_the_whole_text():
    text = "ab<|s|>ab<|s|>"
    for specials in (None, [], ()):
        assert reference.train(text, 290, special_tokens=specials) == reference.train(text, 290)
        assert reference.train(text, 290, special_tokens=specials, pattern=PATTERNS["gpt2"]) == \
            reference.train(text, 290, pattern=PATTERNS["gpt2"])


def test_any_iterable_of_strings_is_taken():
    text = "ab<|s|>ba<|t|>ab"
    expected = reference.train(text, 270, special_tokens=["<|s|>", "<|t|>"])
    assert reference.train(text, 270, special_tokens=("<|s|>", "<|t|>")) == expected
    assert reference.train(text, 270, special_tokens=iter(["<|t|>", "<|s|>"])) == expected
    assert reference.train(text, 270, special_tokens={"<|s|>": 300, "<|t|>": 301}) == expected


@pytest.mark.parametrize("specials, error, words", [
    ("<|s|>", TypeError, "not the single str '<|s|>'"),
    (b"<|s|>", TypeError, "not the single bytes"),
    (5, TypeError, "not int"),
    ([""], ValueError, "non-empty str, got ''"),
    (["<|s|>", None], ValueError, "non-empty str, got None"),
    ([b"<|s|>"], ValueError, "non-empty str, got b'<|s|>'"),
])
def test_bad_specials_are_refused(specials, error, words):
    with pytest.raises(error, match="special") as raised:
        reference.train("ab<|s|>ab", 260, special_tokens=specials)
    assert words in str(raised.value)


@pytest.mark.parametrize("text, position", [
    ("ab<|s|>a b", 8),
    ("<|s|> b", 5),
    ("a b<|s|>ab", 1),
    ("\ud83c\udf0d<|s|>\ud83c\udf0d b", 9),  # a surrogate pair is two characters of the caller's text
])
def test_an_uncovered_character_is_named_in_the_callers_text(text, position):
    with pytest.raises(ValueError, match=rf"position {position}\b"):
        reference.train(text, 260, pattern=r"\S+", special_tokens=["<|s|>"])
