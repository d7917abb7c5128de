"""spec/fast_train.py trains the spec's corpus tables: it must be the oracle's train, merge for merge."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from spec import fast_train, oracle, strategies

#: Texts with long runs and repeats, where incremental counting goes wrong first: overlapping
#: occurrences ("aaaa"), a merge next to its own result, ties broken by first occurrence.
runny_texts = st.lists(st.sampled_from(["a", "aa", "aaa", "ab", "ba", "b", " ", "é", "你"]), max_size=30).map("".join)


@given(st.one_of(strategies.tie_heavy_texts, strategies.mixed_texts, runny_texts), strategies.vocab_sizes)
def test_fast_train_equals_the_oracle(text, vocab_size):
    assert list(fast_train.train(text, vocab_size).items()) == list(oracle.train(text, vocab_size).items())


@given(st.sampled_from("ab"), st.integers(0, 300))
def test_a_run_of_one_letter_merges_like_the_oracle(letter, length):
    text = letter * length
    assert list(fast_train.train(text, 270).items()) == list(oracle.train(text, 270).items())


def test_a_tie_goes_to_the_pair_counted_first_in_the_current_sequence():
    """In "ada ", once (a, d) is merged, the new pair (ad, a) ties with (a, " ") and comes first."""
    merges = list(fast_train.train("ada ", 260).items())
    assert merges == list(oracle.train("ada ", 260).items())
    assert merges[1] == ((256, 97), 257)
