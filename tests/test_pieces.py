"""spec/pieces.py: cutting at token boundaries of the expected encoding changes nothing."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from spec import oracle, pieces, strategies
from spec.patterns import PATTERNS


@given(strategies.tie_heavy_texts, strategies.mixed_texts, strategies.vocab_sizes, st.integers(1, 12))
def test_pieces_join_to_the_text_and_encode_alone_to_their_share(training_text, text, vocab_size, min_bytes):
    merges = oracle.train(training_text + text, vocab_size)
    ids = oracle.encode(text, merges)
    cut = pieces.token_aligned_pieces(text, ids, oracle.build_vocab(merges), min_bytes)
    assert "".join(piece for piece, _ in cut) == text
    assert [i for _, share in cut for i in share] == ids
    assert all(oracle.encode(piece, merges) == share for piece, share in cut)
    assert all(len(piece.encode("utf-8")) >= min_bytes for piece, _ in cut[:-1])


def test_a_cut_never_falls_inside_a_character():
    # With no merges every byte is a token: the only cuts are between the characters.
    text = "é你🌍a"
    cut = pieces.token_aligned_pieces(text, list(text.encode("utf-8")), oracle.build_vocab({}), 1)
    assert [piece for piece, _ in cut] == ["é", "你", "🌍", "a"]


def test_ids_that_do_not_spell_the_text_are_refused():
    with pytest.raises(ValueError):
        pieces.token_aligned_pieces("abc", [97, 98], oracle.build_vocab({}), 1)


@given(strategies.tie_heavy_texts, strategies.mixed_texts, strategies.vocab_sizes, st.sampled_from(sorted(PATTERNS)))
def test_under_a_split_pieces_are_whole_chunks_that_encode_alone_to_their_share(training_text, text, vocab_size,
                                                                                 name):
    """An implementation that always splits cuts each piece again: a piece is whole chunks of the text, and
    the oracle splitting alike encodes it alone to its share of the text's ids."""
    pattern = PATTERNS[name]
    merges = oracle.train(training_text + text, vocab_size, pattern=pattern)
    ids = oracle.encode(text, merges, pattern=pattern)
    chunks = oracle.chunks.chunks(text, pattern)
    cut = pieces.chunk_aligned_pieces(text, ids, oracle.build_vocab(merges), chunks,
                                      lambda piece: oracle.encode(piece, merges, pattern=pattern))
    assert "".join(piece for piece, _ in cut) == text
    assert [i for _, share in cut for i in share] == ids
    assert all(oracle.encode(piece, merges, pattern=pattern) == share for piece, share in cut)
    ends = set(itertools.accumulate(len(chunk.encode("utf-8")) for chunk in chunks))
    assert all(end in ends for end in itertools.accumulate(len(piece.encode("utf-8")) for piece, _ in cut))


def test_a_chunk_that_does_not_encode_alone_to_its_share_is_joined_to_the_next():
    """"12345" is two chunks of GPT-4's split, "123" and "45"; an encode that reads "45" otherwise alone (here: a
    stand-in that gives a wrong share for it) keeps the two together, so no piece is checked against a share it
    cannot have."""
    text = "12345"
    chunks = ["123", "45"]
    cut = pieces.chunk_aligned_pieces(text, list(text.encode("utf-8")), oracle.build_vocab({}), chunks,
                                      lambda piece: [0] if piece == "123" else list(piece.encode("utf-8")))
    assert cut == [("12345", list(b"12345"))]
