"""spec/replay.py is a fast stand-in for the textbook replay: it must agree with the oracle exactly."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from spec import oracle, replay, strategies
from spec.oracle import split
from spec.patterns import PATTERNS


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


@given(st.one_of(strategies.tie_heavy_texts, strategies.mixed_texts), st.sampled_from(sorted(PATTERNS)),
       strategies.vocab_sizes)
def test_under_a_split_the_replay_is_the_chunked_trainings_end_and_its_counts(text, pattern, vocab_size):
    """With a split in force, what training inside the chunks ended with: each chunk's sequence, in text order,
    and each merge's count over the chunks (as the oracle's chunked training chose it)."""
    regex = PATTERNS[pattern]
    with split.splitting_with(split.Split(regex, pattern, _never)):
        merges = oracle.train(text, vocab_size)
        sequence, counts = replay.replay(text, merges.items(), counts=True)
        assert replay.Replayer(text).after(merges.items()) == sequence
    pieces, expected = oracle.chunks.chunk_bytes(text, regex), []
    for pair, idx in merges.items():
        expected.append(sum(oracle.get_stats(piece).get(pair, 0) for piece in pieces))
        pieces = [oracle.merge(piece, pair, idx) for piece in pieces]
    assert sequence == [idx for piece in pieces for idx in piece]
    assert counts == expected


def _never(reason: str):
    raise AssertionError(reason)
