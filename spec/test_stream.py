"""Level stream: feed ids one at a time; text comes out when characters are complete, and all of it equals decode."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from spec import oracle, strategies
from spec.blame import checking
from spec.compare import expect_equal

pytestmark = pytest.mark.level("stream")

#: A table rich in tokens that end or start inside a character: trained on multi-byte text.
TRAINING_TEXT = "你好，世界 naïve café 🌍🌏 ＡＢ—“quotes” " * 3
TABLE = oracle.train(TRAINING_TEXT, 300)


def fed(decoder, ids: list[int]) -> list[str]:
    return [decoder.feed(i) for i in ids]


# The worked cases of spec/cases/stream.json run here too, one test each, as
# test_stream_case[<case id>] (made by spec/cases/collect.py).


@pytest.mark.claim("stream.hold-partial", "stream.eager")
def test_ni_arriving_in_two_tokens(bpe):
    decoder = bpe.StreamDecoder(bpe.build_vocab({(0xE4, 0xBD): 256}))
    with checking("stream.hold-partial"):  # shown before it is complete
        assert decoder.feed(256) == ""
    second = decoder.feed(160)
    with checking("stream.eager" if second == "" else "stream.hold-partial"):  # nothing: held after it was complete
        assert second == "你"
    assert decoder.flush() == ""


id_sequences = st.lists(st.sampled_from(sorted(oracle.build_vocab(TABLE))), max_size=40)


@pytest.mark.claim("stream.matches-decode")
@given(id_sequences)
def test_stream_output_joins_to_decode(bpe, ids):
    vocab = bpe.build_vocab(TABLE)
    decoder = bpe.StreamDecoder(vocab)
    assert "".join(fed(decoder, ids)) + decoder.flush() == bpe.decode(ids, vocab)


@pytest.mark.claim("stream.hold-partial", "stream.eager")
@given(id_sequences)
def test_text_comes_out_as_soon_as_it_is_settled(bpe, ids):
    """After each id, the text so far is everything but a character that may still be completed.

    That tail is held whenever it is the start of a valid character; a decoder may also hold
    a lead byte with too few continuation bytes that the next byte will show invalid (CPython's
    incremental decoder holds ED A0 so).
    """
    table = oracle.build_vocab(TABLE)
    decoder = bpe.StreamDecoder(bpe.build_vocab(TABLE))
    emitted = ""
    for k, token in enumerate(ids, 1):
        emitted += decoder.feed(token)
        data = b"".join(table[i] for i in ids[:k])
        allowed = oracle.stream.stream_texts_allowed(data)
        if emitted in allowed:
            continue
        # more than the settled text: a character shown before it was complete; less: held too long
        held_back = any(len(emitted) < len(text) for text in allowed)
        with checking("stream.eager" if held_back else "stream.hold-partial"):
            assert emitted in allowed, (
                f"after {k} ids, bytes {data.hex(' ')}: emitted {emitted!r}, allowed {sorted(allowed)}"
            )


@pytest.mark.claim("stream.hold-partial", "stream.matches-decode")
@given(strategies.mixed_texts)
def test_streaming_an_encoded_text_gives_it_back_without_replacements(bpe, text):
    ids = oracle.encode(text, TABLE)
    decoder = bpe.StreamDecoder(bpe.build_vocab(TABLE))
    outputs = fed(decoder, ids)
    with checking("stream.hold-partial"):
        assert "\ufffd" not in "".join(outputs) or "\ufffd" in text, f"replacement characters in {outputs}"
    with checking("stream.matches-decode"):
        expect_equal("".join(outputs) + decoder.flush(), text, "streamed text")


@pytest.mark.claim("stream.matches-decode")
def test_two_decoders_do_not_share_state(bpe):
    vocab = bpe.build_vocab({})
    first, second = bpe.StreamDecoder(vocab), bpe.StreamDecoder(vocab)
    assert (first.feed(0xE4), second.feed(0x61), first.feed(0xBD), second.feed(0x62), first.feed(0xA0)) == (
        "", "a", "", "b", "你")
    assert (first.flush(), second.flush()) == ("", "")
