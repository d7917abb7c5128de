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
