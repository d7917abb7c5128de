"""Level encode: replay the merges by lowest rank, never by frequency or length."""

from __future__ import annotations

import copy

import pytest
from hypothesis import given

from spec import cases, oracle, strategies
from spec.blame import checking
from spec.cases import expect
from spec.cases.ops_core import merges_from_the_right
from spec.compare import expect_equal
from spec.shapes import ids_of, merges_of

pytestmark = pytest.mark.level("encode")


# The worked cases of spec/cases/encode.json run here too, one test each (made by spec/cases/collect.py):
# encode cases as test_encode_case[<case id>],
# train_encode cases as test_encode_with_corpus_table_case[<case id>].


@pytest.mark.claim("encode.order-matters")
def test_the_same_merges_in_another_order_encode_differently(bpe):
    """Its own observable: the two abc tables (the worked cases encode-abc-*) give different ids. What each gives
    is encode.priority-not-longest's, checked by the cases."""
    tables = {case["id"]: (expect.merges_from(case["input"]["merges"]), case["expected"]["ids"])
              for case in cases.cases_of("encode", "encode") if case["id"].startswith("encode-abc-")}
    assert len(tables) == 2
    (first, want_first), (second, want_second) = tables.values()
    assert want_first != want_second
    got_first, got_second = ids_of(bpe.encode("abc", first)), ids_of(bpe.encode("abc", second))
    assert got_first != got_second, f"both orders of the same merges encode abc as {got_first}"


@pytest.mark.claim("encode.lowest-rank", "merge.left-to-right")
@given(strategies.tie_heavy_texts, strategies.tie_heavy_texts, strategies.vocab_sizes)
def test_encode_equals_oracle(bpe, training_text, text, vocab_size):
    merges = dict(merges_of(oracle.train(training_text, vocab_size)))
    expected = oracle.encode(text, merges)  # first: a table the implementation changes is encode.frozen's, not this
    result = ids_of(bpe.encode(text, dict(merges)))
    with checking(_rank_or_order(bpe, text, merges, result, expected)):
        assert result == expected


def _rank_or_order(bpe, text: str, merges: dict, result: list[int], expected: list[int]) -> str:
    """The claim a wrong encode breaks: merge.left-to-right when it is exactly merging from the right (the
    ranks were followed, the occurrences taken in the wrong order), else encode.lowest-rank."""
    return "merge.left-to-right" if merges_from_the_right(bpe, text, merges, result, expected) else "encode.lowest-rank"


@pytest.mark.claim("merge.left-to-right", "encode.lowest-rank")
@given(strategies.run_texts, strategies.run_texts, strategies.vocab_sizes)
def test_encode_merges_odd_runs_from_the_left(bpe, training_text, text, vocab_size):
    """Runs of one letter, odd lengths often: each merge takes them from the left."""
    merges = dict(merges_of(oracle.train(training_text + text, vocab_size)))
    expected = oracle.encode(text, merges)
    result = ids_of(bpe.encode(text, dict(merges)))
    from_the_right = merges_from_the_right(bpe, text, merges, result, expected)
    with checking("merge.left-to-right" if from_the_right else "encode.lowest-rank"):
        expect_equal(result, expected, "ids" + (" (what merging runs from the right gives)" if from_the_right else ""),
                     merges=merges)


@pytest.mark.claim("encode.lowest-rank", "merge.left-to-right")
@given(strategies.tie_heavy_texts, strategies.tie_heavy_texts, strategies.vocab_sizes)
def test_encode_follows_ranks_not_dict_order(bpe, training_text, text, vocab_size):
    merges = oracle.train(training_text, vocab_size)
    shuffled = dict(reversed(list(merges.items())))
    result, expected = ids_of(bpe.encode(text, shuffled)), oracle.encode(text, merges)
    with checking(_rank_or_order(bpe, text, merges, result, expected)):
        assert result == expected


@pytest.mark.claim("encode.replays-training", "train.tie-recorded", "merge.left-to-right")
@given(strategies.tie_heavy_texts, strategies.vocab_sizes)
def test_encoding_the_training_text_replays_training(bpe, text, vocab_size):
    merges = bpe.train(text, vocab_size)
    table = merges_of(merges)
    expect.fail_invalid_training(text, table, vocab_size, oracle.valid_training.ids_wrong(table, vocab_size)
                                 or oracle.valid_training.not_greedy(text, table))
    result, expected = ids_of(bpe.encode(text, merges)), oracle.core.train_sequence(text, dict(table))
    from_the_right = merges_from_the_right(bpe, text, dict(table), result, expected)
    with checking("merge.left-to-right" if from_the_right else "encode.replays-training"):
        expect_equal(result, expected, "ids", merges=dict(table))


@pytest.mark.claim("encode.replays-training", "merge.left-to-right")
def test_pathological_run_of_one_letter(bpe):
    text = "a" * 100_000
    merges = bpe.train(text, 300)
    table = dict(merges_of(merges))  # before encode could touch it
    expected = oracle.core.train_sequence(text, table)
    result = ids_of(bpe.encode(text, merges))
    from_the_right = merges_from_the_right(bpe, text, table, result, expected)
    with checking("merge.left-to-right" if from_the_right else "encode.replays-training"):
        assert result == expected


@pytest.mark.claim("encode.frozen")
@given(strategies.tie_heavy_texts, strategies.mixed_texts)
def test_encoding_never_changes_the_table(bpe, training_text, text):
    merges = oracle.train(training_text, 280)
    before = copy.deepcopy(list(merges.items()))
    bpe.encode(text, merges)
    assert list(merges.items()) == before


@pytest.mark.claim("encode.short-input", "bytes.base-256")
@given(strategies.any_texts)
def test_short_inputs_encode_without_error(bpe, text):
    text = text[:1]
    # one byte or none is the short-input claim; a single character of several bytes is their UTF-8 bytes
    with checking("encode.short-input" if len(text.encode("utf-8")) <= 1 else "bytes.base-256"):
        expect_equal(ids_of(bpe.encode(text, {(97, 98): 256})), list(text.encode("utf-8")), f"ids of {text!r}")


#: merge's own worked values, stated through encode with a table of that one merge (the new id 256, the lowest a
#: table can give): such an encode makes exactly that merge's replacements, so code with no merge of its own (a
#: course's tokenizer) is judged on them too. Each text is one chunk, or cut only where no pair of the merge spans,
#: under every published split pattern. Each case names its own claim (test262's metadata: one clause a case). One
#: element alone is encode.short-input's case (spec/test_encode.py, short inputs), not stated again here.
ONE_MERGE_CASES = [
    pytest.param(claim, ids, pair, expected, id=name, marks=pytest.mark.claim(claim))
    for claim, name, ids, pair, expected in (
        ("merge.example-99", "example-99", [5, 6, 6, 7, 9, 1], (6, 7), [5, 6, 256, 9, 1]),
        ("merge.end-guard", "pair-at-the-end", [97, 98], (97, 98), [256]),
        ("merge.end-guard", "last-two", [97, 97, 98], (97, 98), [97, 256]),
        ("merge.end-guard", "last-one-copied", [97, 98, 97], (97, 98), [256, 97]),
    )
]


@pytest.mark.parametrize("claim, ids, pair, expected", ONE_MERGE_CASES)
def test_a_table_of_one_merge_encodes_as_that_merge_replaces(bpe, claim, ids, pair, expected):
    text = bytes(ids).decode("utf-8")
    result = ids_of(bpe.encode(text, {pair: 256}))
    with checking(claim if result == expected or not _own_merge_gives(bpe, ids, pair, expected)
                  else "encode.lowest-rank"):
        expect_equal(result, expected, f"ids of encode({text!r}, {{{pair}: 256}}): merge({ids}, {pair}, 256)")


def _own_merge_gives(bpe, ids: list[int], pair: tuple[int, int], expected: list[int]) -> bool:
    """The implementation's own merge (where it has one) replaces the pair right: an encode that does not is
    encode's failure (it never merges, or merges otherwise than its merge does), not merge's."""
    try:
        return ids_of(bpe.merge(list(ids), pair, 256)) == expected
    except Exception:  # noqa: BLE001 - no merge of its own (a course shape), or a merge that fails: no evidence
        return False


def _misspelt(bpe, text: str, merges: dict) -> str | None:
    """What is wrong with ``encode(text, merges)`` by this claim's own observable: an id neither a byte nor the table's,
    or ids whose bytes do not spell the text (None: neither)."""
    vocab = oracle.build_vocab(merges)
    ids = ids_of(bpe.encode(text, dict(merges)))
    outside = [idx for idx in ids if idx not in vocab]
    if outside:
        return f"encode({text!r}, ...) gave ids {outside} the table does not have: a special's own?"
    spelt = b"".join(vocab[idx] for idx in ids)
    return None if spelt == text.encode("utf-8") else f"encode({text!r}, ...) spells {spelt!r}"


@pytest.mark.claim("encode.no-implicit-specials")
@given(strategies.special_in_text, strategies.special_in_text, strategies.vocab_sizes)
def test_a_special_tokens_text_is_encoded_like_any_other_when_no_specials_are_given(bpe, training_text, text,
                                                                                     vocab_size):
    """encode(text, merges) has no special tokens: <|endoftext|> in the text is 13 bytes to encode. Its own
    observable, whatever the merge order: every id is a byte or the table's, and their bytes spell the text (no id of
    a special's own, none dropped), with an empty table and with one learned over such strings. Judged where the same
    text with its special strings broken (<| made <!) is encoded so: a failure there too is another claim's (a text
    read in text mode folds its CR: bytes.no-normalization; held out: a merge order was charged here)."""
    for merges in ({}, dict(merges_of(oracle.train(training_text + text, vocab_size)))):
        if _misspelt(bpe, text.replace("<|", "<!"), merges) is None:
            assert (problem := _misspelt(bpe, text, merges)) is None, problem
