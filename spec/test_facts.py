"""Facts the documents state about their toy corpora and arithmetic; no implementation involved."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

pytestmark = pytest.mark.level("facts")

TOY_CORPUS = "the cat sat on the mat the cat ate the rat a cat and a rat sat on a mat the rats ate"


@pytest.mark.claim("chars.toy-corpus")
def test_toy_corpus_counts():
    words = TOY_CORPUS.split()
    assert (len(words), sorted(set(words))) == (
        23,
        ["a", "and", "ate", "cat", "mat", "on", "rat", "rats", "sat", "the"],
    )
    assert (len(TOY_CORPUS), len(set(TOY_CORPUS))) == (84, 12)
    assert round(len(TOY_CORPUS) / len(words), 1) == 3.7
    assert words.count("the") * len("the") == 15
    assert "cats" not in set(words)


@pytest.mark.claim("chars.attention-cost")
def test_attention_cost_grows_with_the_square():
    assert (23**2, 84**2, round(84**2 / 23**2, 1)) == (529, 7056, 13.3)
    assert [(k * 10) ** 2 / 10**2 for k in (3, 4)] == [9, 16]


@pytest.mark.corpus("tinyshakespeare")
@pytest.mark.claim("chars.shakespeare-65")
def test_shakespeare_character_vocabulary(corpus):
    chars = sorted(set(corpus("tinyshakespeare")))
    stoi = {c: i for i, c in enumerate(chars)}
    assert len(chars) == 65
    assert [stoi[c] for c in "hii there"] == [46, 47, 47, 1, 58, 46, 43, 56, 43]


@pytest.mark.claim("numbers.embedding-growth")
def test_embedding_growth_from_gpt2_to_128k():
    added = (128_000 - 50_257) * 4_096
    assert added == 318_435_328 and round(added / 1e9, 2) == 0.32


@pytest.mark.claim("numbers.vocab-cost-38m")
def test_vocab_cost_both_readings():
    """Informative: the document's rounding cannot be settled, so both readings are recorded."""
    assert round(2 * 384 * (50_257 - 65) / 1e6, 1) == 38.5
    assert round(2 * 384 * 50_257 / 1e6, 1) == 38.6


# UTF-8 facts behind the bytes level: they guard the teaching material, not an implementation.

@pytest.mark.claim("bytes.examples")
def test_code_points_of_examples():
    assert (ord("世"), ord("🌍")) == (19990, 127757)


@pytest.mark.claim("bytes.lengths")
@given(st.characters(codec="utf-8"))
def test_utf8_length_by_code_point_range(char):
    cp = ord(char)
    expected = 1 if cp < 0x80 else 2 if cp < 0x800 else 3 if cp < 0x10000 else 4
    assert len(char.encode("utf-8")) == expected


@pytest.mark.claim("bytes.lengths")
@pytest.mark.parametrize(
    "char, length", [("A", 1), ("é", 2), ("Ω", 2), ("Ж", 2), ("世", 3), ("你", 3), ("🌍", 4), ("𝄞", 4)]
)
def test_utf8_length_by_script(char, length):
    assert len(char.encode("utf-8")) == length


@pytest.mark.claim("bytes.codepoints")
def test_code_points_of_ni_hao_shi_jie():
    assert [ord(c) for c in "你好，世界"] == [20320, 22909, 65292, 19990, 30028]


@pytest.mark.claim("bytes.utf16-zeros")
def test_utf16_and_utf32_pad_ascii_with_zeros():
    assert list("h".encode("utf-16-le")) == [104, 0]
    assert list("h".encode("utf-32-le")) == [104, 0, 0, 0]


@pytest.mark.claim("bytes.cjk-triple")
def test_cjk_sentence_is_15_characters_45_bytes():
    sentence = "分词是大模型许多怪现象的根源。"
    assert (len(sentence), len(sentence.encode("utf-8"))) == (15, 45)


@pytest.mark.claim("bytes.no-normalization")
def test_normal_forms_differ_in_bytes():
    nfc, nfd = unicodedata.normalize("NFC", "é"), unicodedata.normalize("NFD", "é")
    assert nfc.encode() == b"\xc3\xa9" and nfd.encode() == b"e\xcc\x81"
    assert "ＡＢＣ".encode() == bytes.fromhex("efbca1efbca2efbca3") != b"ABC"


@pytest.mark.claim("bytes.shared-prefix")
def test_shared_leading_bytes():
    assert all(c.encode()[:2] == b"\xe4\xbd" for c in "你住位体作低")
    assert {c: c.encode().hex() for c in "的字合并"} == {"的": "e79a84", "字": "e5ad97", "合": "e59088", "并": "e5b9b6"}


@pytest.mark.claim("bytes.partial-char")
def test_partial_character_decodes_to_replacement():
    assert "你".encode()[:2].decode("utf-8", errors="replace") == "\ufffd"
    assert "你".encode().decode("utf-8") == "你"


@pytest.mark.claim("bytes.continuation-128")
def test_byte_128_is_a_continuation_byte():
    assert 0b10000000 == 128
    with pytest.raises(UnicodeDecodeError, match="invalid start byte"):
        bytes([128]).decode("utf-8")
