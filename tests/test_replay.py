"""spec/replay.py is a fast stand-in for the textbook replay: it must agree with the oracle exactly."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from spec import oracle, replay, strategies


@given(strategies.tie_heavy_texts, strategies.vocab_sizes)
def test_replay_equals_the_textbook_sequence_and_counts(text, vocab_size):
    merges = oracle.train(text, vocab_size)
    sequence, counts = replay.replay(text, merges.items(), counts=True)
    assert sequence == oracle.core.train_sequence(text, merges)
    ids, expected = list(text.encode("utf-8")), []
    for pair, idx in merges.items():
        expected.append(oracle.get_stats(ids)[pair])
        ids = oracle.merge(ids, pair, idx)
    assert counts == expected


@given(strategies.tie_heavy_texts, st.lists(st.integers(min_value=0, max_value=44), min_size=1, max_size=5))
def test_replayer_continuing_or_restarting_equals_a_fresh_replay(text, lengths):
    """Prefixes in any order (growing, shrinking, repeated) and a foreign table in between."""
    merges = list(oracle.train(text, 300).items())
    replayer = replay.Replayer(text)
    for length in lengths:
        assert replayer.after(merges[:length]) == replay.replay(text, merges[:length])[0]
    foreign = [((merges[0][0][1], merges[0][0][0]), 256)] if merges else []
    assert replayer.after(foreign) == replay.replay(text, foreign)[0]
