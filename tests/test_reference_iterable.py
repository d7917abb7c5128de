"""The reference's encode_iterable in its batched path: every text read starts a batch here, so the final-prefix
logic (specials that may still grow, chunks the pattern may still change, a high surrogate at the end, error
positions counted in the joined text) runs on small inputs, where the spec's property rarely reaches it
(the reference batches 64 Ki characters). Each batch's ids must be those of encoding the joined text."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import reference
from reference import iterable
from spec.patterns import PATTERNS

UNITS = ("<|endoftext|>", "<|im|>start", "<|im|>", "<|", "|>", "  ", "   ", "\r\n", "\n\n", "\t", "é", "你好", "🌍",
         "\ud83c", "\udf0d", "'ll", "'s", "'ve", "12345", "the", " cat", " sat", "a", ".", "!", " ", "x")
SPECIALS = {"<|endoftext|>": 1000, "<|im|>": 1001, "<|im|>start": 1002}
TABLE = reference.train("".join(UNITS) * 3 + " the cat sat. the cat sat.\r\n  'll 12345 你好 🌍", 420)
POLICIES = ({}, {"special_tokens": SPECIALS, "allowed_special": "all"},
            {"special_tokens": SPECIALS, "allowed_special": {"<|im|>"}, "disallowed_special": ()},
            {"special_tokens": SPECIALS, "allowed_special": {"<|im|>"}})
PATTERN_NAMES = [None, *PATTERNS]


def outcome(function):
    """The ids, or the error's type and message (the position it names included)."""
    try:
        return list(function())
    except (ValueError, TypeError) as error:  # UncoveredText is a ValueError: the contract's type is named
        return ("ValueError" if isinstance(error, ValueError) else "TypeError"), str(error)


def streamed(pieces: list[str], keywords: dict):
    return outcome(lambda: reference.encode_iterable(iter(pieces), TABLE, **keywords))


def joined_outcome(pieces: list[str], keywords: dict):
    return outcome(lambda: reference.encode("".join(pieces), TABLE, **keywords))


@pytest.fixture(autouse=True)
def every_text_a_batch(monkeypatch):
    monkeypatch.setattr(iterable, "BATCH", 1)


@settings(max_examples=150, deadline=None)
@given(pieces=st.lists(st.lists(st.sampled_from(UNITS), max_size=4).map("".join), max_size=10),
       pattern=st.sampled_from(PATTERN_NAMES), policy=st.sampled_from(POLICIES))
def test_batched_streaming_gives_the_ids_and_errors_of_the_joined_text(pieces, pattern, policy):
    keywords = {"pattern": PATTERNS[pattern] if pattern else None, **policy}
    assert streamed(pieces, keywords) == joined_outcome(pieces, keywords)


@pytest.mark.parametrize("pattern", [name for name in PATTERNS])
def test_the_first_ids_come_before_the_input_ends(pattern):
    """Lazy in every published pattern: an endless input of short lines yields ids after a few lines."""
    lines = itertools.cycle(["the cat sat.\n", " 'll 12345 ", "  你好 🌍\r\n"])
    read = []

    def counted():
        for line in lines:
            read.append(line)
            yield line

    first = next(reference.encode_iterable(counted(), TABLE, pattern=PATTERNS[pattern]))
    assert isinstance(first, int) and len(read) <= 4


def test_a_disallowed_special_in_a_later_text_is_named_at_its_place_in_the_joined_text():
    pieces = ["the cat ", "sat. ", "<|endoftext|>", " more"]
    joined = outcome(lambda: reference.encode("".join(pieces), TABLE, special_tokens=SPECIALS))
    assert joined[0] == "ValueError" and "position 13" in joined[1]
    assert outcome(lambda: reference.encode_iterable(iter(pieces), TABLE, special_tokens=SPECIALS)) == joined


def test_a_text_that_is_not_a_str_is_a_type_error():
    with pytest.raises(TypeError, match="each text must be a str, not bytes"):
        list(reference.encode_iterable(iter(["ab", b"cd"]), TABLE))


#: Texts where a cut is hardest: a special that may still grow into a longer one, a special at the very end,
#: contractions and runs of spaces (what the published patterns read past a chunk), surrogate pairs written as
#: two code points (at the edges of the high and low ranges) and a lone high surrogate at the end.
HARD_TEXTS = ("ab<|im|>start<|endoftext|>cd<|im|>", "don't you'll  we've\r\n\n  x 12345",
              "a\ud83c\udf0d b \ud83c\udf0d x\ud83c", "x \udbff\udfff y \ud800\udc00 z")
HARD_POLICIES = ({}, {"special_tokens": SPECIALS, "allowed_special": "all"}, {"special_tokens": SPECIALS})


def cuts_of(text: str) -> list[list[str]]:
    """Every cut in two, and cuts in three at every third pair of places."""
    two = [[text[:i], text[i:]] for i in range(len(text) + 1)]
    three = [[text[:i], text[i:j], text[j:]] for i in range(0, len(text) + 1, 3) for j in range(i, len(text) + 1, 3)]
    return two + three


@pytest.mark.parametrize("policy", range(len(HARD_POLICIES)))
@pytest.mark.parametrize("pattern", PATTERN_NAMES)
@pytest.mark.parametrize("text", HARD_TEXTS)
def test_every_cut_of_a_hard_text_gives_the_joined_texts_ids_and_errors(text, pattern, policy):
    keywords = {"pattern": PATTERNS[pattern] if pattern else None, **HARD_POLICIES[policy]}
    joined = outcome(lambda: reference.encode(text, TABLE, **keywords))
    for pieces in cuts_of(text):
        assert streamed(pieces, keywords) == joined, pieces


@pytest.mark.parametrize("pattern", PATTERN_NAMES)
def test_errors_name_their_place_in_the_joined_text_after_earlier_batches(pattern):
    """A disallowed special, and text a pattern does not cover, in a late text: the position is the joined
    text's, counted over everything the earlier batches encoded."""
    keywords = {"pattern": PATTERNS[pattern] if pattern else None, "special_tokens": SPECIALS}
    pieces = ["the cat ", "sat. ", "and more ", "<|endoftext|>"]
    assert streamed(pieces, keywords) == \
        joined_outcome(pieces, keywords)
    uncovered = {"pattern": r"\w+| |<\|im\|>", "special_tokens": SPECIALS, "allowed_special": "all"}
    pieces = ["ab ", "<|im|>", "cd ", "ef", "!"]
    joined = outcome(lambda: reference.encode("".join(pieces), TABLE, **uncovered))
    assert joined[0] == "ValueError" and "14" in joined[1]
    assert outcome(lambda: reference.encode_iterable(iter(pieces), TABLE, **uncovered)) == joined


def test_a_special_whose_id_a_merge_has_is_refused_as_encode_refuses_it():
    taken = {"<|endoftext|>": 256}
    assert outcome(lambda: reference.encode_iterable(iter(["ab"]), TABLE, special_tokens=taken)) == \
        outcome(lambda: reference.encode("ab", TABLE, special_tokens=taken))
    assert outcome(lambda: reference.encode("ab", TABLE, special_tokens=taken))[0] == "ValueError"


def test_a_special_that_may_still_grow_is_held_until_it_cannot():
    """With <|im|> and <|im|>start the only specials, a buffer ending in "<|im|>star" must wait: held back
    exactly from the last place the longest special could start."""
    specials = {"<|im|>": 1001, "<|im|>start": 1002}
    for text in ("ab<|im|>start x", "ab<|im|>stax", "<|im|><|im|>start<|im|>"):
        joined = reference.encode(text, TABLE, special_tokens=specials, allowed_special="all")
        for pieces in cuts_of(text):
            assert list(reference.encode_iterable(iter(pieces), TABLE, special_tokens=specials,
                                                  allowed_special="all")) == joined, pieces


def test_error_positions_count_every_earlier_batch():
    specials_allowed = {"special_tokens": SPECIALS, "allowed_special": "all"}
    pieces = ["ab ", "<|im|>", "cd ", "<|im|>", "ef ", "<|im|>", "gh", "!"]
    for keywords in ({"pattern": r"\w+| |<\|im\|>", **specials_allowed},):
        assert streamed(pieces, keywords) == \
            joined_outcome(pieces, keywords)
    for pieces in (["a ", "b ", "c ", "d ", "e ", "f ", "g ", "<|endoftext|>", " x"],
                   ["word "] * 12 + ["<|endoftext|>"] + [" tail"] * 6):
        for pattern in PATTERN_NAMES:
            keywords = {"pattern": PATTERNS[pattern] if pattern else None, "special_tokens": SPECIALS}
            assert streamed(pieces, keywords) == \
                joined_outcome(pieces, keywords)


def test_the_table_and_specials_are_checked_before_the_first_text_is_read():
    def unreadable():
        raise AssertionError("read before the table and the specials were checked")
        yield ""

    with pytest.raises(ValueError):
        reference.encode_iterable(unreadable(), TABLE, special_tokens={"<|endoftext|>": 256})
