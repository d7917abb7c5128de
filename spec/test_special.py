"""Level special: reserved ids that are never split nor merged, and an explicit policy for special text."""

from __future__ import annotations

import re

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from spec import oracle, strategies
from spec.blame import checking
from spec.cases.expect import assert_names_special
from spec.compare import expect_equal
from spec.own_cut import own_encodings
from spec.patterns import PATTERNS
from spec.shapes import ids_of, merges_of, token_at

pytestmark = pytest.mark.level("special")

SPECIAL_ID = 1000  # beyond every table the strategies can train


# The worked cases of spec/cases/special.json run here too, one test each (made by spec/cases/collect.py):
# encode_special cases as test_encode_special_case[<case id>],
# decode cases as test_decode_special_case[<case id>].


@pytest.mark.claim("special.atomic")
@given(strategies.special_strings, st.lists(strategies.tie_heavy_texts, min_size=1, max_size=5),
       strategies.vocab_sizes, st.sampled_from([None, "gpt2", "gpt4"]))
def test_special_is_one_id_exactly_where_it_occurs(bpe, special, pieces, vocab_size, pattern_name):
    """Trained on the special as plain text, the table merges it with its neighbours; encoding must not."""
    text = special.join(pieces)
    pattern = PATTERNS.get(pattern_name)
    merges = bpe.train(text, vocab_size)
    table = dict(merges_of(merges))
    ids = ids_of(bpe.encode(text, merges, pattern=pattern, special_tokens={special: SPECIAL_ID}, allowed_special="all"))
    assert ids.count(SPECIAL_ID) == text.count(special)
    want = oracle.encode(text, table, special_tokens={special: SPECIAL_ID}, allowed_special="all",
                         disallowed_special="all", pattern=pattern)
    # the special one id between the code's own encodings of the texts around it: right here, whatever those are
    # (a wrong merge order inside a piece is encode's claim's: eighth round, development, charged here)
    assert ids == want or ids == own_encodings(bpe, text.split(special), merges, pattern, [SPECIAL_ID]), (ids, want)


@pytest.mark.claim("special.policy", "special.overlap-rule")
@given(st.lists(st.sampled_from(["<|a|>", "<|b|>", "<|a|>b", "a", "b", " ", "<", "|", "é", "你好", "🌍"]),
               max_size=12).map("".join),
       st.sampled_from(["all", set(), {"<|a|>"}, {"<|b|>", "<|a|>b"}]),
       st.sampled_from(["all", set(), {"<|b|>"}, {"<|a|>", "<|a|>b"}]))
def test_policy_matches_the_textbook(bpe, text, allowed, disallowed):
    specials = {"<|a|>": 500, "<|b|>": 501, "<|a|>b": 502}
    merges = {(60, 124): 256, (124, 97): 257, (97, 124): 258, (124, 62): 259, (62, 98): 260}
    call = dict(special_tokens=specials, allowed_special=allowed, disallowed_special=disallowed)
    active = [s for s in specials if allowed == "all" or s in allowed or disallowed == "all" or s in disallowed]
    with checking("special.overlap-rule" if _occurrences_overlap(text, active) else "special.policy"):
        try:
            expected = oracle.encode(text, merges, special_tokens=specials, allowed_special=allowed,
                                     disallowed_special=disallowed)
        except oracle.special.DisallowedSpecial as error:
            with pytest.raises(ValueError) as raised:
                bpe.encode(text, merges, **call)
            assert_names_special(raised.value, error.special, error.position)
        else:
            expect_equal(ids_of(bpe.encode(text, merges, **call)), expected, f"ids of {text!r}", merges=merges)


def _occurrences_overlap(text: str, specials: list[str]) -> bool:
    """Do two occurrences of these specials share a character? Only then does the overlap rule decide."""
    spans = sorted((i, i + len(s)) for s in specials for i in range(len(text)) if text.startswith(s, i))
    return any(b_start < a_end for (_, a_end), (b_start, _) in zip(spans, spans[1:]))


@pytest.mark.claim("special.policy")
def test_defaults_disallow_every_special(bpe):
    specials = {"<|endoftext|>": 300}
    with pytest.raises(ValueError) as raised:
        bpe.encode("fine text, then <|endoftext|>", {}, special_tokens=specials)
    assert_names_special(raised.value, "<|endoftext|>", 16)
    assert ids_of(bpe.encode("no special here", {}, special_tokens=specials)) == list(b"no special here")


@pytest.mark.claim("special.policy")
@given(strategies.non_ascii_pieces, strategies.special_strings, strategies.tie_heavy_texts)
def test_a_refused_special_is_placed_by_characters_not_bytes(bpe, before, special, after):
    """Non-ASCII text before the special: its position is a str index, whatever its UTF-8 length."""
    text = before + special + after
    with pytest.raises(oracle.special.DisallowedSpecial) as textbook:  # every special is refused by default
        oracle.special.split_special(text, {special: SPECIAL_ID})
    with pytest.raises(ValueError) as raised:
        bpe.encode(text, {}, special_tokens={special: SPECIAL_ID})
    assert_names_special(raised.value, textbook.value.special, textbook.value.position)


@pytest.mark.claim("special.policy")
def test_special_text_can_be_plain_text(bpe):
    specials = {"<|endoftext|>": 300}
    text = "say <|endoftext|> aloud"
    ids = ids_of(bpe.encode(text, {}, special_tokens=specials, disallowed_special=set()))
    assert ids == list(text.encode("utf-8"))


#: A table on which a whole piece is one token yet replay differs (encode.replay-not-lookup's worked case).
LOOKUP_TABLE = {(97, 98): 256, (100, 101): 257, (98, 99): 258, (258, 257): 259, (97, 259): 260}


@pytest.mark.claim("encode.replay-not-lookup", "special.atomic")
def test_the_pieces_between_specials_are_replayed_not_looked_up(bpe):
    """A lookup shortcut taken only on the path with specials (ninth round, development: a CS336 tokenizer looked up
    the whole piece between two specials). Judged where the implementation replays the piece given no special."""
    alone = ids_of(bpe.encode("abcde", dict(LOOKUP_TABLE)))
    ids = ids_of(bpe.encode("abcde<|x|>abcde", dict(LOOKUP_TABLE), special_tokens={"<|x|>": 300},
                            allowed_special="all"))
    with checking("special.atomic"):
        assert ids.count(300) == 1, f"encode('abcde<|x|>abcde', ..., allowed_special='all') gave {ids}: 300 once"
    if alone != [256, 99, 257]:
        return  # the piece alone is looked up or otherwise wrong: the encode level's worked case judges it
    with checking("encode.replay-not-lookup"):
        expect_equal(ids, [*alone, 300, *alone], "ids (each piece between specials as the piece alone encodes)")


@pytest.mark.claim("encode.no-implicit-specials")
@given(strategies.special_in_text, strategies.vocab_sizes)
def test_an_empty_set_of_specials_encodes_as_none_given_does(bpe, text, vocab_size):
    """Its own observable: the implementation's encode given ``special_tokens={}`` against its encode given none (a
    CS336 tokenizer given an empty list split on the empty alternation and merged nothing: ninth round)."""
    merges = dict(merges_of(oracle.train(text, vocab_size)))
    none = ids_of(bpe.encode(text, dict(merges)))
    expect_equal(ids_of(bpe.encode(text, dict(merges), special_tokens={})), none,
                 "ids given special_tokens={} (what it gives with no special_tokens)")


@pytest.mark.claim("special.overlap-rule")
@given(st.text(alphabet="abc", max_size=24))
def test_overlapping_specials_leftmost_then_longest(bpe, text):
    specials = {"ab": 300, "abc": 301, "bc": 302, "c": 303, "cab": 304}
    ids = ids_of(bpe.encode(text, {}, special_tokens=specials, allowed_special="all"))
    assert ids == oracle.encode(text, {}, special_tokens=specials, allowed_special="all", disallowed_special="all")


@pytest.mark.claim("special.decode", "special.atomic")
@given(st.lists(strategies.special_strings, min_size=1, max_size=4, unique=True), strategies.mixed_texts,
       strategies.vocab_sizes)
def test_decode_gives_the_special_text_back(bpe, specials, text, vocab_size):
    table = {special: SPECIAL_ID + k for k, special in enumerate(specials)}
    assume(not any(s in t for s in specials for t in specials if s != t))  # no special inside another
    mixed = "".join(s + text[k::3] for k, s in enumerate(specials))
    merges = bpe.train(text, vocab_size)
    vocab = bpe.build_vocab(merges, special_tokens=table)
    with checking("special.decode"):
        expect_equal({idx: token_at(vocab, idx) for idx in table.values()},
                     {idx: s.encode("utf-8") for s, idx in table.items()}, "bytes of the special ids")
    ids = ids_of(bpe.encode(mixed, merges, special_tokens=table, allowed_special="all"))
    with checking("special.atomic"):
        assert set(table.values()) <= set(ids), (
            f"each special of {mixed!r} is one id: {sorted(table.values())} in {ids}"
        )
    with checking("special.decode"):
        expect_equal(bpe.decode(ids, vocab), mixed, "decoded text")


@pytest.mark.claim("special.decode")
def test_decode_of_a_special_id_alone(bpe):
    vocab = bpe.build_vocab({(97, 98): 256}, special_tokens={"<|endoftext|>": 257, "終わり\n": 258})
    assert bpe.decode([258, 256, 257], vocab) == "終わり\nab<|endoftext|>"


@pytest.mark.claim("regex.covers-text")
@pytest.mark.parametrize("text, position", [("ab<|x|>c d", 8), ("ab<|x|>cd<|x|>e f", 15), ("<|x|><|x|> ", 10)],
                         ids=["after-one-special", "after-two-specials", "after-specials-only"])
def test_an_uncovered_position_counts_the_specials_before_it(bpe, text, position):
    """A position in an error is a ``str`` index into the whole text: specials and the plain
    pieces before it count with all their characters (spec/CONTRACT.md, regex and special)."""
    with pytest.raises(ValueError) as raised:
        bpe.encode(text, {}, pattern=r"\S+", special_tokens={"<|x|>": SPECIAL_ID}, allowed_special="all")
    assert re.search(rf"(?<!\d){position}(?!\d)", str(raised.value)), \
        f"the message does not name position {position}: {raised.value}"
