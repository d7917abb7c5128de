"""spec/replay.py is a fast stand-in for the textbook replay: it must agree with the oracle exactly."""

from __future__ import annotations

from hypothesis import given

from spec import oracle, replay, strategies


@given(strategies.tie_heavy_texts, strategies.vocab_sizes)
def test_replay_equals_the_textbook_sequence_and_counts(text, vocab_size):
    merges = oracle.train(text, vocab_size)
    sequence, counts = replay.replay(text, merges.items(), counts=True)
    assert sequence == oracle.train_sequence(text, merges)
    ids, expected = list(text.encode("utf-8")), []
    for pair, idx in merges.items():
        expected.append(oracle.get_stats(ids)[pair])
        ids = oracle.merge(ids, pair, idx)
    assert counts == expected
