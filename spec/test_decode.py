"""Level decode: the vocabulary in training order; join bytes, then UTF-8 with replacement."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from spec import corpus_values, oracle, strategies
from spec.blame import checking
from spec.compare import expect_equal
from spec.shapes import token_at
from spec.trained_vocab import vocab_of_trained

pytestmark = pytest.mark.level("decode")


# The worked cases of spec/cases/decode.json run here too, one test each (made by spec/cases/collect.py):
# decode cases as test_decode_case[<case id>],
# build_vocab cases as test_build_vocab_case[<case id>].


@pytest.mark.claim("decode.vocab-order")
@given(strategies.tie_heavy_texts, strategies.vocab_sizes)
def test_vocab_has_bytes_then_merges(bpe, text, vocab_size):
    merges = bpe.train(text, vocab_size)
    vocab = bpe.build_vocab(merges)
    expected = vocab_of_trained(merges, text, vocab_size)
    assert sorted(int(i) for i in vocab) == sorted(expected)
    assert all(token_at(vocab, i) == expected[i] for i in expected)


@pytest.mark.claim("decode.join-then-decode", "decode.replace-128")
@given(strategies.tie_heavy_texts, st.data())
def test_decode_equals_byte_lookup(bpe, text, data):
    merges = bpe.train(text + "你好🌍", 280)
    vocab = bpe.build_vocab(merges)
    table = vocab_of_trained(merges, text + "你好🌍", 280)
    ids = data.draw(st.lists(st.sampled_from(sorted(table)), max_size=30))
    joined = b"".join(table[i] for i in ids)
    actual = bpe.decode(ids, vocab)
    per_token = "".join(table[i].decode("utf-8", errors="replace") for i in ids)
    # valid UTF-8 decoded wrong, or the signature of decoding token by token: joining is what broke
    valid = joined.decode("utf-8", errors="replace") == joined.decode("utf-8", errors="ignore")
    with checking("decode.join-then-decode" if valid or actual == per_token else "decode.replace-128"):
        expect_equal(actual, joined.decode("utf-8", errors="replace"), f"decode of bytes {joined.hex(' ')}")


@pytest.mark.claim("decode.replace-128")
@given(st.lists(st.integers(0, 255), max_size=40))
def test_any_bytes_decode_without_error(bpe, ids):
    assert bpe.decode(ids, bpe.build_vocab({})) == bytes(ids).decode("utf-8", errors="replace")


@pytest.mark.claim("decode.no-merge-order")
def test_decode_needs_only_the_vocabulary(bpe):
    vocab = {i: bytes([i]) for i in range(256)} | {256: "你".encode()[:2], 300: b"ok"}
    assert bpe.decode([256, 160, 300], vocab) == "你ok"


@pytest.mark.claim("decode.unknown-id")
@pytest.mark.parametrize("ids, merges", [([97, 4242], {(97, 97): 256}), ([4242], None)],
                         ids=["after-a-known-id", "empty-vocabulary"])
def test_unknown_id_is_a_clear_error_naming_it(bpe, ids, merges):
    vocab = {} if merges is None else bpe.build_vocab(merges)  # an empty vocabulary knows no id at all
    with pytest.raises((KeyError, ValueError, IndexError)) as caught:
        bpe.decode(ids, vocab)
    assert "4242" in str(caught.value)


@pytest.mark.corpus("tinyshakespeare")
@pytest.mark.claim("decode.vocab-order")
def test_shakespeare_vocab_273_is_space_th(bpe, corpus, trained, spec_table):
    """vocab[273] is b" th" because vocab[257] is b"th" first; under a split, the first merge of the oracle's own
    Shakespeare-20 table (split alike) that takes an earlier merge's token, with that token (spec/corpus_values.py)."""
    entries = corpus_values.value("the Shakespeare-20 table's ids 257 and 273", {257: b"th", 273: b" th"},
                                  lambda: _merged_again(spec_table("tinyshakespeare", 276)))
    vocab = bpe.build_vocab(trained("tinyshakespeare", corpus("tinyshakespeare"), 276))
    assert all(idx in vocab for idx in entries), f"the vocabulary of the 20-merge table has {len(vocab)} ids, not 276"
    assert {idx: token_at(vocab, idx) for idx in entries} == entries


def _merged_again(table: dict) -> dict[int, bytes]:
    """The first merge taking an earlier merge's token as a part, and that token: their bytes by id."""
    built = oracle.build_vocab(table)
    for (left, right), idx in table.items():
        part = next((part for part in (left, right) if part >= 256), None)
        if part is not None:
            return {part: built[part], idx: built[idx]}
    oracle.split.needs_whole_text("a Shakespeare-20 table in which a merged token is merged again")
