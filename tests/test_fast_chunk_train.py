"""spec/fast_chunk_train.py trains the corpus tables restated under a split: it must be the oracle's chunked
train, merge for merge, for every published pattern and every tie rule."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from spec import fast_chunk_train, oracle, strategies
from spec.patterns import PATTERNS
from spec.tie_rules import TIE_RULES

#: Words repeated across chunks, runs and contractions: weighted counts, overlaps and chunk order matter here.
chunky_texts = st.lists(st.sampled_from(["the", " the", " thin", "aaa", " aa", "ab", " ba", "'s", "  ", "\n",
                                         "12345", " é", "你", "!!", " th"]), max_size=30).map("".join)


@given(st.one_of(strategies.tie_heavy_texts, strategies.mixed_texts, chunky_texts), strategies.vocab_sizes,
       st.sampled_from(sorted(PATTERNS)), st.sampled_from(sorted(TIE_RULES)))
def test_fast_chunk_train_equals_the_oracle(text, vocab_size, pattern, tie_rule):
    fast = fast_chunk_train.train(text, vocab_size, PATTERNS[pattern], tie_rule)
    assert list(fast.items()) == list(oracle.train(text, vocab_size, pattern=PATTERNS[pattern],
                                                   tie_rule=tie_rule).items())


def test_a_tie_goes_to_the_pair_whose_first_chunk_comes_first():
    """" b" occurs first, in the second chunk; "ab" is counted first, in the first: first-counted takes "ab"."""
    text = "ab ba ab ba"
    merges = fast_chunk_train.train(text, 257, PATTERNS["gpt2"])
    assert merges == oracle.train(text, 257, pattern=PATTERNS["gpt2"]) == {(97, 98): 256}
