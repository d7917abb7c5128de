"""Level roundtrip: decode(encode(text)) is the text, for every text and every table."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given

from spec import strategies
from spec.blame import checking
from spec.compare import expect_equal
from spec.shapes import ids_of

pytestmark = pytest.mark.level("roundtrip")


def roundtrip(bpe, text, merges):
    return bpe.decode(bpe.encode(text, merges), bpe.build_vocab(merges))


@pytest.mark.claim("roundtrip.any-text")
@given(strategies.any_texts, strategies.mixed_texts, strategies.vocab_sizes)
def test_any_text_round_trips_with_any_table(bpe, text, training_text, vocab_size):
    assert roundtrip(bpe, text, bpe.train(training_text, vocab_size)) == text


@pytest.mark.claim("roundtrip.any-text")
@given(strategies.mixed_texts, strategies.vocab_sizes)
def test_training_text_round_trips(bpe, text, vocab_size):
    assert roundtrip(bpe, text, bpe.train(text, vocab_size)) == text


@pytest.mark.claim("roundtrip.no-unk")
@given(strategies.any_texts, strategies.mixed_texts)
def test_every_id_is_in_the_vocabulary(bpe, text, training_text):
    merges = bpe.train(training_text, 290)
    vocab = bpe.build_vocab(merges)
    assert all(int(i) in vocab for i in bpe.encode(text, merges))


@pytest.mark.claim("bytes.no-normalization")
def test_normal_forms_stay_distinct_and_round_trip(bpe):
    merges = bpe.train("café cafe\u0301 ＡＢＣ ABC " * 5, 270)
    forms = [unicodedata.normalize("NFC", "café"), unicodedata.normalize("NFD", "café"), "ＡＢＣ", "ABC"]
    encodings = [ids_of(bpe.encode(form, merges)) for form in forms]
    assert encodings[0] != encodings[1] and encodings[2] != encodings[3]
    assert [roundtrip(bpe, form, merges) for form in forms] == forms


@pytest.mark.claim("decode.not-inverse")
def test_decode_then_encode_need_not_give_the_ids_back(bpe):
    text = bpe.decode([128], bpe.build_vocab({}))
    assert ids_of(bpe.encode(text, {})) == [239, 191, 189] != [128]


@pytest.mark.corpus("tinyshakespeare")
@pytest.mark.parametrize("which", [pytest.param("first-5000", marks=pytest.mark.claim("roundtrip.shakespeare-5000")),
                                   pytest.param("unseen", marks=pytest.mark.claim("roundtrip.unseen"))])
def test_shakespeare_table_round_trips(bpe, corpus, trained, which):
    shakespeare = corpus("tinyshakespeare")
    merges = trained("tinyshakespeare", shakespeare, 276)
    text = shakespeare[:5000] if which == "first-5000" else "Hello, 世界！分词器没见过中文也能处理。👋"
    expect_equal(roundtrip(bpe, text, merges), text, "decode(encode(text))")


@pytest.mark.corpus("alice")
@pytest.mark.claim("roundtrip.examples", "corpus.d1-examples")
@pytest.mark.parametrize("text", ["strawberry", "Alice was beginning to get very tired", "café — naïve — 日本語"])
def test_alice_examples_round_trip(bpe, spec_table, text):
    merges = spec_table("alice", 512)
    with checking("roundtrip.examples", "corpus.d1-examples"):  # both claims say these three round-trip
        expect_equal(roundtrip(bpe, text, merges), text, "decode(encode(text))")
