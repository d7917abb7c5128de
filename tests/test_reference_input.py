"""The reference under bad input: tables, types and text it must refuse or repair, never misread.

These are the reference's own choices where the contract leaves room (spec/CONTRACT.md,
"Bad input"): the spec never hands an implementation such input, so they are checked here.
"""

from __future__ import annotations

import functools
import re

import pytest

import reference

SPECIAL = "<|x|>"


@functools.total_ordering
class Index:
    """An integer-like object that is not an int: equal to, hashed and ordered like its value (as numpy's)."""

    def __init__(self, value: int) -> None:
        self.value = value

    def __index__(self) -> int:
        return self.value

    def __eq__(self, other: object) -> bool:
        return self.value == other

    def __hash__(self) -> int:
        return hash(self.value)

    def __lt__(self, other: object) -> bool:
        return self.value < other


# --- merge tables: a merge's id is checked like its parts ------------------------------

@pytest.mark.parametrize("merges, named", [
    ({(97, 98): 97}, "97"),                        # would overwrite the byte 97
    ({(97, 98): 256, (98, 99): 256}, "256"),       # two merges, one id
    ({(97, 98): -1}, "-1"),
    ({(97, 98): 256, (256, 99): 256}, "256"),      # a merge using its own id
    ({(300, 98): 256}, "300"),                     # a part not defined yet (as before)
    ({(97, -2): 256}, "-2"),                       # a part that is no byte
    ({(97, 257): 256, (97, 98): 257}, "257"),      # a part defined only by a later id
])
def test_build_vocab_refuses_a_merge_id_that_means_two_things(merges, named):
    with pytest.raises(ValueError, match=rf"merge .*{re.escape(named)}"):
        reference.build_vocab(merges)


@pytest.mark.parametrize("call", [
    lambda table, specials: reference.build_vocab(table, special_tokens=specials),
    lambda table, specials: reference.encode("ab <|x|>", table, special_tokens=specials, allowed_special="all"),
    lambda table, specials: reference.encode("", table, special_tokens=specials),
])
@pytest.mark.parametrize("special_id", [256, 97, -3])
def test_a_special_id_taken_by_a_merge_or_a_byte_is_refused_everywhere(tmp_path, call, special_id):
    """One rule for build_vocab, encode and save, with the same message."""
    table, specials = {(97, 98): 256}, {SPECIAL: special_id}
    with pytest.raises(ValueError) as raised:
        call(table, specials)
    with pytest.raises(ValueError) as by_save:
        reference.save(tmp_path / "t.bpe", table, special_tokens=specials)
    assert str(raised.value) == str(by_save.value)
    assert SPECIAL in str(raised.value) and str(special_id) in str(raised.value)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("special", ["", "a\ud800b"])
def test_a_special_that_cannot_be_text_is_refused(special):
    with pytest.raises(ValueError):
        reference.build_vocab({}, special_tokens={special: 300})
    with pytest.raises(ValueError):
        reference.encode("abc", {}, special_tokens={special: 300}, allowed_special="all")


# --- types: say what was expected -------------------------------------------------------

@pytest.mark.parametrize("merges", [None, [((97, 98), 256)], "ab"])
def test_build_vocab_of_a_non_mapping_is_a_type_error_that_says_mapping(merges):
    with pytest.raises(TypeError, match="mapping"):
        reference.build_vocab(merges)


@pytest.mark.parametrize("text", ["", "a", "ab", "abab" * 20])
@pytest.mark.parametrize("table", [{(97, 98): "256"}, {(97, 98): 256.0}, {(97, "b"): 256}, {(97,): 256}])
def test_a_non_int_id_is_an_error_whatever_the_text_length(text, table):
    with pytest.raises(TypeError, match="int|pair"):
        reference.encode(text, table)
    with pytest.raises(TypeError):
        reference.build_vocab(table)


def test_bool_is_not_an_id():
    with pytest.raises(TypeError):
        reference.build_vocab({(97, True): 256})
    with pytest.raises(TypeError):
        reference.train("abc", True)


def test_integer_like_objects_are_accepted_where_an_int_is(tmp_path):
    table = {(Index(97), Index(98)): Index(256), (Index(256), Index(99)): Index(257)}
    plain = {(97, 98): 256, (256, 99): 257}
    assert reference.build_vocab(table) == reference.build_vocab(plain)
    assert reference.encode("abcab", table) == reference.encode("abcab", plain) == [257, 256]
    assert reference.train("abcabc", Index(258)) == reference.train("abcabc", 258)
    specials = {SPECIAL: Index(300)}
    assert reference.build_vocab(plain, special_tokens=specials)[300] == SPECIAL.encode()
    reference.save(tmp_path / "t.bpe", table, special_tokens=specials)
    assert reference.load(tmp_path / "t.bpe") == (plain, None, {SPECIAL: 300})


@pytest.mark.parametrize("ids, expected", [
    ([1, 1, 1], {(1, 1): 2}),
    ([1, 2, 1, 2], {(1, 2): 2, (2, 1): 1}),
    ([], {}),
])
def test_get_stats_and_merge_read_a_one_shot_iterator_like_its_list(ids, expected):
    assert reference.get_stats(iter(ids)) == reference.get_stats(ids) == expected
    assert reference.get_stats(x for x in ids) == expected
    assert reference.merge(iter(ids), (1, 2), 9) == reference.merge(ids, (1, 2), 9)


def test_get_stats_of_a_non_iterable_is_a_type_error():
    with pytest.raises(TypeError, match="sequence"):
        reference.get_stats(5)


# --- text: lone surrogates, positions in the caller's text ------------------------------

def test_surrogates_are_repaired_like_tiktoken_in_every_path():
    repaired = "a\ufffdb🌍\ufffd"
    text = "a\ud800b\ud83c\udf0d\udc00"
    table = reference.train("ab ab ab", 260)
    assert reference.encode(text, {}) == list(repaired.encode())
    assert reference.encode(text, table) == reference.encode(repaired, table)
    assert reference.encode(text, table, pattern=r"\X") == reference.encode(repaired, table, pattern=r"\X")
    assert reference.train(text * 3, 270) == reference.train(repaired * 3, 270)
    assert reference.train(text * 3, 270, pattern=r" ?\S+|\s+") == reference.train(repaired * 3, 270, pattern=r" ?\S+|\s+")


@pytest.mark.parametrize("text, keywords, position", [
    ("hi there!", {}, 2),
    ("\ud83c\udf0d!x", {}, 2),  # the pair is one character once repaired, two in the caller's text
    (SPECIAL + "ab!", {"special_tokens": {SPECIAL: 300}, "allowed_special": "all"}, 7),
    ("ab" + SPECIAL + "cd" + SPECIAL + "e!", {"special_tokens": {SPECIAL: 300}, "allowed_special": "all"}, 15),
])
def test_an_uncovered_character_is_named_at_its_position_in_the_callers_text(text, keywords, position):
    pattern = r"[a-z]+|[\U0001F30D]"
    with pytest.raises(ValueError, match=rf"position {position}\b"):
        reference.encode(text, {}, pattern=pattern, **keywords)
    if not keywords:
        with pytest.raises(ValueError, match=rf"position {position}\b"):
            reference.train(text, 300, pattern=pattern)


@pytest.mark.parametrize("pattern", ["(", "[a-", "x{2,1}"])
def test_a_bad_pattern_fails_even_for_an_empty_text(pattern):
    with pytest.raises(ValueError, match="invalid split pattern"):
        reference.encode("", {}, pattern=pattern)
    with pytest.raises(ValueError, match="invalid split pattern"):
        reference.train("", 260, pattern=pattern)


def test_a_table_is_checked_again_once_its_size_changes():
    """encode remembers a verdict per table object, as long as the table's size holds."""
    table = {(97, 98): 256}
    assert reference.encode("ab", table) == [256]
    table[(98, 99)] = 99  # now a merge id is a byte
    with pytest.raises(ValueError, match="below 256"):
        reference.encode("ab", table)


def test_check_special_tokens_returns_plain_ints():
    from reference.tables import check_special_tokens

    assert check_special_tokens({SPECIAL: Index(400)}, {256}) == {SPECIAL: 400}
