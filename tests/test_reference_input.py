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
    assert reference.train(text * 3, 270, pattern=r" ?\S+|\s+") == reference.train(
        repaired * 3, 270, pattern=r" ?\S+|\s+"
    )


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


# --- tables the reference refuses (CONTRACT.md, Bad input): each rule on its own -------

@pytest.mark.parametrize("merges", [
    {(256, 97): 257},                  # a left part no merge defines (256 is not a byte)
    {(97, 256): 257},                  # the same on the right
    {(256, 98): 256},                  # a merge made of its own id
    {(98, 256): 256},
    {(97, 98): 256, (257, 99): 257},   # made of its own id, which is not a lower one
    {(97, 98): 256, (99, 257): 257},
])
@pytest.mark.parametrize("call", ["build_vocab", "encode", "save"])
def test_a_part_not_yet_defined_is_refused_everywhere(tmp_path, merges, call):
    with pytest.raises(ValueError, match="neither a byte"):
        if call == "build_vocab":
            reference.build_vocab(merges)
        elif call == "encode":
            reference.encode("a", merges)
        else:
            reference.save(tmp_path / "t.bpe", merges)
    assert not any(tmp_path.iterdir())


@pytest.mark.parametrize("merges", [
    {(True, 98): 256}, {(97, False): 256}, {(97.0, 98): 256}, {(97, 98.0): 256}, {(97, "b"): 256},
    {(97, 98): 256, (256, True): 257},
])
def test_a_part_that_is_not_an_int_is_a_type_error(merges):
    with pytest.raises(TypeError, match="a merge's part must be an int"):
        reference.build_vocab(merges)
    with pytest.raises(TypeError, match="a merge's part must be an int"):
        reference.encode("ab", merges)


@pytest.mark.parametrize("key", [(97, 98, 99), (97,), (), "ab", 97, frozenset({97, 98})])
def test_a_key_that_is_not_a_pair_is_a_type_error(key):
    with pytest.raises(TypeError, match="must be a pair"):
        reference.build_vocab({key: 256})
    with pytest.raises(TypeError, match="must be a pair"):
        reference.encode("ab", {(97, 98): 256, key: 257})


def test_integer_like_parts_in_a_table_are_read_as_their_values():
    table = {(Index(97), Index(98)): Index(256), (Index(256), 99): 257}
    assert reference.encode("abc", table) == [257]
    assert reference.build_vocab(table)[257] == b"abc"


@pytest.mark.parametrize("special", ["", 5, None, b"<|x|>"])
def test_a_special_that_is_not_a_non_empty_str_is_refused(special):
    with pytest.raises(ValueError, match="non-empty str"):
        reference.build_vocab({}, special_tokens={special: 300})


def test_a_table_changed_between_calls_is_checked_again():
    """A table may change between calls (the contract asks only that encode not change it):
    the verdict remembered for it must not outlive the change, nor answer for another table."""
    table = {(97, 98): 256}
    assert reference.encode("abc", table) == [256, 99]
    table[(98, 99)] = 99  # a merge id that is a byte
    with pytest.raises(ValueError, match="below 256"):
        reference.encode("abc", table)
    del table[(98, 99)]
    table[(256, 99)] = 257
    assert reference.encode("abc", table) == [257]
    other = {(98, 99): 99}
    with pytest.raises(ValueError, match="below 256"):
        reference.encode("abc", other)


def test_many_tables_in_turn_are_each_checked():
    """More tables than the reference remembers, each valid then broken: every break is seen."""
    tables = [{(97, 98): 256 + k} for k in range(20)]
    for table in tables:
        assert reference.encode("ab", table) == [next(iter(table.values()))]
    for table in tables:
        table[(98, 98)] = 98
        with pytest.raises(ValueError, match="below 256"):
            reference.encode("ab", table)


# --- train_words under bad input (its documented refusals) -----------------------------

@pytest.mark.parametrize("num_merges", [2.5, 3.0, "3", None, True])
def test_train_words_refuses_a_num_merges_that_is_not_an_int(num_merges):
    with pytest.raises(TypeError, match="num_merges must be an int"):
        reference.train_words("low lower lowest", num_merges)


@pytest.mark.parametrize("num_merges", [-1, -5])
def test_train_words_refuses_a_negative_num_merges(num_merges):
    with pytest.raises(ValueError, match="num_merges must be at least 0"):
        reference.train_words("low lower lowest", num_merges)


def test_train_words_takes_zero_merges_and_an_int_like_count_of_merges():
    assert reference.train_words("low lower lowest", 0) == []
    assert len(reference.train_words("low lower lowest", 2)) == 2


@pytest.mark.parametrize("corpus", [
    {"low": 0}, {"low": -2}, {"low": 2, "lower": 0}, {"low": True}, {"low": 2.0}, {"low": "2"},
    {5: 1}, {("l", "o"): 1},
])
def test_train_words_refuses_counts_that_are_not_positive_ints_and_words_that_are_not_str(corpus):
    with pytest.raises(ValueError, match="positive int"):
        reference.train_words(corpus, 3)


@pytest.mark.parametrize("corpus", [None, ["low", "lower"], 5])
def test_train_words_refuses_a_corpus_that_is_neither_text_nor_mapping(corpus):
    with pytest.raises(TypeError, match="corpus must be a str or a mapping"):
        reference.train_words(corpus, 3)


# --- what the errors name (spec/CONTRACT.md, "Bad input": the entry, what was expected) -------

@pytest.mark.parametrize("merges, entry", [
    ({(300, 98): 256}, "merge (300, 98) -> 256"),                    # the left part undefined
    ({(97, 98): 256, (97, 300): 257}, "merge (97, 300) -> 257"),     # the right part undefined
])
def test_a_part_not_yet_defined_is_refused_naming_the_whole_entry(merges, entry):
    """The contract's "ValueError naming the entry": both parts and the id, as the table holds them."""
    with pytest.raises(ValueError, match=re.escape(entry)):
        reference.build_vocab(merges)


def test_two_specials_sharing_an_id_are_refused_naming_both_and_the_id():
    """An id that means two things: the error names both specials and their id."""
    with pytest.raises(ValueError) as refused:
        reference.build_vocab({}, special_tokens={"<|a|>": 300, "<|b|>": 300})
    assert all(word in str(refused.value) for word in ("'<|a|>'", "'<|b|>'", "300"))


def test_a_special_holding_a_lone_surrogate_is_refused_naming_it():
    """tables.py: every refusal names the offending entry; here the special, escaped as repr spells it."""
    with pytest.raises(ValueError) as refused:
        reference.build_vocab({}, special_tokens={"a\ud800b": 300})
    assert repr("a\ud800b") in str(refused.value)


@pytest.mark.parametrize("table", [None, [((97, 98), 256)]])
def test_encode_with_a_table_that_is_not_a_mapping_says_a_mapping_was_expected(table):
    """As build_vocab: a TypeError that says what was expected (in any case of letters)."""
    with pytest.raises(TypeError, match="(?i)mapping"):
        reference.encode("ab", table)


def test_a_stream_decoder_refuses_an_unknown_id_naming_it_as_decode_does():
    """The stream's output is decode's (spec/CONTRACT.md, stream): an unknown id is an error
    naming the id, as in decode, never skipped."""
    vocab = reference.build_vocab({})
    decoder = reference.StreamDecoder(vocab)
    with pytest.raises(ValueError, match=r"\b4242\b"):
        decoder.feed(4242)
    with pytest.raises(ValueError, match=r"\b4242\b"):
        reference.decode([4242], vocab)


class _Table(dict):
    """A merge table that can be weakly referenced (a plain dict cannot)."""


def test_the_tables_remembered_are_a_few_not_every_table_ever_passed():
    """encode remembers the verdict for the last few tables only: a table the caller has
    dropped is freed once enough others have been checked, not kept alive for good."""
    import gc
    import weakref

    first = _Table({(97, 98): 256})
    assert reference.encode("ab", first) == [256]
    gone = weakref.ref(first)
    del first
    for k in range(50):
        reference.encode("ab", _Table({(97, 98): 256 + k}))
    gc.collect()
    assert gone() is None
