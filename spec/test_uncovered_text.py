"""Level regex: a split pattern must cover the text; a character in no match is an error, not a loss.

Cutting text into chunks keeps only what the pattern matches. A pattern that misses a
character would make it vanish from the tokens (``\\w+`` turns "hi there!" into "hithere"),
so ``train`` and ``encode`` raise ValueError naming the first such position instead. The
published patterns cover every text (``test_regex``), so this never fires for them.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from spec import oracle, strategies
from spec.blame import checking
from spec.cases.expect import assert_names_position
from spec.shapes import ids_of, merges_of

pytestmark = [pytest.mark.level("regex"), pytest.mark.claim("regex.covers-text")]

#: Patterns that cover some texts and not others (no digits, so a number in a message is a position).
PARTIAL_PATTERNS = (r"\w+", r"[ab]+| ", r"\S+", r"[^\n]+", r" ?[a-z]+|\s+", r"\p{L}+|[ ']", "a|b|", "")


# The "uncovered" worked cases of spec/cases/regex.json run here too, one test each, as
# test_uncovered_text_case[<case id>] (made by spec/cases/collect.py).


@given(strategies.chunky_texts, strategies.vocab_sizes, st.sampled_from(PARTIAL_PATTERNS))
def test_train_and_encode_refuse_what_the_pattern_leaves_out(bpe, text, vocab_size, pattern):
    """Covered: the usual result. Not covered: ValueError naming the first uncovered position."""
    position = oracle.chunks.first_uncovered(text, pattern)
    merges = oracle.train(text, vocab_size)
    if position is None:
        problem = oracle.valid_training.violation(text, merges_of(bpe.train(text, vocab_size, pattern=pattern)),
                                          vocab_size, pattern)
        assert problem is None, problem  # valid chunk training, whatever the tie rule
        assert ids_of(bpe.encode(text, merges, pattern=pattern)) == oracle.encode(text, merges, pattern=pattern)
        return
    with pytest.raises(ValueError) as raised:
        bpe.train(text, vocab_size, pattern=pattern)
    assert_names_position(raised.value, position)
    with pytest.raises(ValueError) as raised:
        bpe.encode(text, merges, pattern=pattern)
    assert_names_position(raised.value, position)


#: 🌍 given as its UTF-16 surrogate pair: two of the caller's characters, one once repaired.
PAIR = "\ud83c\udf0d"


@pytest.mark.level("surrogates")  # a str holding surrogate code points is that level's, beyond regex's own
@pytest.mark.claim("surrogates.repaired")
@pytest.mark.parametrize("text, position", [
    (PAIR + PAIR + " x", 4),
    ("a" + PAIR + "b" + PAIR + "\n", 6),
    ("\ud800\udc00\udbff\udfff x", 4),  # the first and the last pair UTF-16 can spell
    ("a\udc00 x", 2),  # a low surrogate after a letter is lone: one character each way
    ("\ud83ca x", 2),  # a high surrogate before a letter is lone too
], ids=["after-two-pairs", "between-pairs", "edge-pairs", "lone-low-after-letter", "lone-high-before-letter"])
def test_the_position_counts_the_callers_characters_across_surrogate_pairs(bpe, require_feature, text, position):
    """A position in an error message is a ``str`` index into the text as given (spec/CONTRACT.md, surrogates)."""
    require_feature("train(pattern=)")
    require_feature("encode(pattern=)")
    with checking("regex.covers-text"), pytest.raises(ValueError) as raised:
        bpe.train(text, 300, pattern=r"\S+")
    with checking("surrogates.repaired"):
        assert_names_position(raised.value, position)
    with checking("regex.covers-text"), pytest.raises(ValueError) as raised:
        bpe.encode(text, {}, pattern=r"\S+")
    with checking("surrogates.repaired"):
        assert_names_position(raised.value, position)
