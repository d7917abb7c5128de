"""spec/pieces.py: cutting at token boundaries of the expected encoding changes nothing."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from spec import oracle, pieces, strategies


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
