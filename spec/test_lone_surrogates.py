"""Surrogate code points in a Python str: every level repairs them first, as tiktoken does.

A str may hold surrogates (U+D800..U+DFFF), which have no UTF-8 form. The rule, tiktoken's:
a high surrogate directly followed by a low one is the character that UTF-16 pair spells,
every other surrogate is U+FFFD (``spec.oracle.scalar_text``). Each test names its level,
so a learner meets the rule with the function it concerns. The examples are in
``spec/cases/bytes.json``; the comparison with tiktoken itself is in ``test_pretrained``.
"""

from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from spec import oracle, oracle_chunks, oracle_greedy, strategies
from spec.patterns import GPT2_SPLIT_PATTERN, GPT4_SPLIT_PATTERN
from spec.shapes import ids_of, merges_of

pytestmark = pytest.mark.claim("bytes.lone-surrogates")

SPECIAL = "<|end|>"
SPECIAL_ID = 1000  # beyond every table the strategies can train


@pytest.mark.level("bytes")
@given(strategies.surrogate_texts)
def test_empty_table_encodes_the_repaired_text(bpe, text):
    assert ids_of(bpe.encode(text, {})) == list(oracle.utf8(text))


@pytest.mark.level("train")
@given(strategies.surrogate_texts, strategies.vocab_sizes)
def test_train_learns_from_the_repaired_text(bpe, text, vocab_size):
    """Valid training of the repaired text's bytes, whatever the tie rule (a tie rule is not this claim's business)."""
    problem = oracle_greedy.violation(text, merges_of(bpe.train(text, vocab_size)), vocab_size)
    assert problem is None, problem


@pytest.mark.level("encode")
@given(strategies.surrogate_texts, strategies.surrogate_texts, strategies.vocab_sizes)
def test_encode_replays_merges_on_the_repaired_text(bpe, training_text, text, vocab_size):
    merges = oracle.train(training_text + text, vocab_size)
    assert ids_of(bpe.encode(text, merges)) == oracle.encode(text, merges)


@pytest.mark.level("roundtrip")
@given(strategies.surrogate_texts, strategies.surrogate_texts, strategies.vocab_sizes)
def test_decode_gives_back_the_repaired_text(bpe, training_text, text, vocab_size):
    merges = bpe.train(training_text, vocab_size)
    assert bpe.decode(bpe.encode(text, merges), bpe.build_vocab(merges)) == oracle.scalar_text(text)


@pytest.mark.level("regex")
@given(strategies.surrogate_texts, strategies.surrogate_texts, strategies.vocab_sizes,
       st.sampled_from((GPT2_SPLIT_PATTERN, GPT4_SPLIT_PATTERN)))
def test_split_patterns_cut_the_repaired_text(bpe, training_text, text, vocab_size, pattern):
    """A joined pair is one letter-or-symbol for the pattern, a U+FFFD is a symbol."""
    problem = oracle_greedy.violation(training_text, merges_of(bpe.train(training_text, vocab_size, pattern=pattern)),
                                      vocab_size, pattern)
    assert problem is None, problem
    merges = oracle.train(training_text + text, vocab_size)
    assert ids_of(bpe.encode(text, merges, pattern=pattern)) == oracle_chunks.encode(text, merges, pattern)


@pytest.mark.level("special")
@given(st.lists(strategies.surrogate_texts, min_size=1, max_size=4))
def test_specials_are_found_in_the_text_as_given(bpe, pieces):
    """Allowed: the special's id between the repaired pieces. Disallowed: the caller's position."""
    text = SPECIAL.join(pieces)
    specials = {SPECIAL: SPECIAL_ID}
    expected = oracle_chunks.encode_special(text, {}, specials, "all", "all")
    assert ids_of(bpe.encode(text, {}, special_tokens=specials, allowed_special="all")) == expected
    if len(pieces) > 1:
        with pytest.raises(ValueError, match=rf"(?<!\d){text.index(SPECIAL)}(?!\d)"):
            bpe.encode(text, {}, special_tokens=specials)
