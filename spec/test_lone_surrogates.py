"""Level surrogates: a Python str holding surrogate code points is repaired first, as tiktoken does.

A str may hold surrogates (U+D800..U+DFFF), which have no UTF-8 form. The rule, tiktoken's:
a high surrogate directly followed by a low one is the character that UTF-16 pair spells,
every other surrogate is U+FFFD (``spec.oracle.core.scalar_text``). It is a level of its own,
beyond the core: the documents' textbook code (``text.encode("utf-8")``) raises on such a
str, and is still a correct BPE. The tests with a split pattern or special tokens need
those features too, and are "not started" without them. The examples are in
``spec/cases/surrogates.json``; the comparison with tiktoken itself is in ``test_pretrained``.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from spec import oracle, strategies
from spec.patterns import GPT2_SPLIT_PATTERN, GPT4_SPLIT_PATTERN
from spec.shapes import ids_of, merges_of

pytestmark = [pytest.mark.level("surrogates"), pytest.mark.claim("surrogates.repaired")]

SPECIAL = "<|end|>"
SPECIAL_ID = 1000  # beyond every table the strategies can train


# The worked cases of spec/cases/surrogates.json run here too, one test each, as
# test_encode_case[<case id>] (made by spec/cases/collect.py).


@given(strategies.surrogate_texts)
def test_empty_table_encodes_the_repaired_text(bpe, text):
    assert ids_of(bpe.encode(text, {})) == list(oracle.core.utf8(text))


@given(strategies.surrogate_texts, strategies.vocab_sizes)
def test_train_learns_from_the_repaired_text(bpe, text, vocab_size):
    """Valid training of the repaired text's bytes, whatever the tie rule (a tie rule is not this claim's business)."""
    problem = oracle.valid_training.violation(text, merges_of(bpe.train(text, vocab_size)), vocab_size)
    assert problem is None, problem


@given(strategies.surrogate_texts, strategies.surrogate_texts, strategies.vocab_sizes)
def test_encode_replays_merges_on_the_repaired_text(bpe, training_text, text, vocab_size):
    merges = oracle.train(training_text + text, vocab_size)
    assert ids_of(bpe.encode(text, merges)) == oracle.encode(text, merges)


@given(strategies.surrogate_texts, strategies.surrogate_texts, strategies.vocab_sizes)
def test_decode_gives_back_the_repaired_text(bpe, training_text, text, vocab_size):
    merges = bpe.train(training_text, vocab_size)
    assert bpe.decode(bpe.encode(text, merges), bpe.build_vocab(merges)) == oracle.core.scalar_text(text)


@given(strategies.surrogate_texts, strategies.surrogate_texts, strategies.vocab_sizes,
       st.sampled_from((GPT2_SPLIT_PATTERN, GPT4_SPLIT_PATTERN)))
def test_split_patterns_cut_the_repaired_text(bpe, require_feature, training_text, text, vocab_size, pattern):
    """A joined pair is one letter-or-symbol for the pattern, a U+FFFD is a symbol."""
    require_feature("train(pattern=)")
    require_feature("encode(pattern=)")
    problem = oracle.valid_training.violation(
        training_text, merges_of(bpe.train(training_text, vocab_size, pattern=pattern)), vocab_size, pattern
    )
    assert problem is None, problem
    merges = oracle.train(training_text + text, vocab_size)
    assert ids_of(bpe.encode(text, merges, pattern=pattern)) == oracle.encode(text, merges, pattern=pattern)


@given(st.lists(strategies.surrogate_texts, min_size=1, max_size=4))
def test_specials_are_found_in_the_text_as_given(bpe, require_feature, pieces):
    """Allowed: the special's id between the repaired pieces. Disallowed: the caller's position, in a refusal. That
    the default refuses a special at all is special.policy's, judged at its level: an encode that does not refuse
    here says nothing of surrogates (a minbpe class defaulting to "all" was charged here)."""
    require_feature("encode(special_tokens=)")
    text = SPECIAL.join(pieces)
    specials = {SPECIAL: SPECIAL_ID}
    expected = oracle.encode(text, {}, special_tokens=specials, allowed_special="all", disallowed_special="all")
    assert ids_of(bpe.encode(text, {}, special_tokens=specials, allowed_special="all")) == expected
    if len(pieces) > 1:
        try:
            bpe.encode(text, {}, special_tokens=specials)
        except ValueError as refused:
            assert re.search(rf"(?<!\d){text.index(SPECIAL)}(?!\d)", str(refused)), (
                f"the refusal names no position {text.index(SPECIAL)} (the caller's, in characters): {refused}")
