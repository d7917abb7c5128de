"""Level words: classic word-level BPE, words spelled with an end-of-word marker and weighted by count."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from spec import cases, oracle, strategies
from spec.blame import checking
from spec.cases import ops_production, runner
from spec.compare import expect_equal
from spec.shapes import symbols_of, word_merges_of
from spec.toy_words import TOY_CORPUS

pytestmark = pytest.mark.level("words")


def _word_cases(operation: str, key: str) -> list:
    return [param for param in cases.params("words", operation) if key in param.values[0]["expected"]]


def _budget_params() -> list:
    """One parameter per row of the table, its id the row itself (merges-8-vocab-20-tokens-39-per-word-1.70)."""
    params = []
    for param in _word_cases("train_words", "tokens"):
        case = param.values[0]
        row = ops_production.budget_row_expected(case)
        assert row.per_word == f"{case['expected']['tokens_per_word']:.2f}"
        params.append(pytest.param(case, id=row.label, marks=param.marks))
    return params


# The worked cases of spec/cases/words.json run here too, one test each (made by spec/cases/collect.py):
# train_words cases that expect merges as test_train_words_case[<case id>] (then the runners-up, counted
# by the oracle), segment_word cases as test_segment_word_case[<case id>]; the budget rows are below.


@pytest.mark.claim("words.toy-segmentation", "words.segmentation-replays")
def test_segment_word_takes_train_words_output_as_it_is(bpe):
    """The list train_words returns, counts and all, is a valid merges argument."""
    merges = bpe.train_words(TOY_CORPUS, 8)
    expected = {case.values[0]["input"]["word"]: case.values[0]["expected"]["symbols"]
                for case in _word_cases("segment_word", "symbols") if case.id.startswith("toy-segmentation-")}
    assert sorted(expected) == sorted(set(TOY_CORPUS.split()))
    as_returned = {word: symbols_of(bpe.segment_word(word, merges)) for word in expected}
    with checking("words.segmentation-replays"):  # counts and all, the list works as its pairs alone do
        pairs_only = [tuple(pair) for pair, _ in merges]
        expect_equal(as_returned, {word: symbols_of(bpe.segment_word(word, pairs_only)) for word in expected},
                     "segments with train_words' list against its pairs alone")
    with checking("words.toy-segmentation"):
        expect_equal(as_returned, expected, "segments")


@pytest.mark.parametrize("case", _budget_params())
def test_merge_budget_row(bpe, request, case):
    """Vocabulary size, corpus tokens and tokens per word, from the implementation's own train_words
    and segment_word."""
    runner.run(case, bpe, request)


@pytest.mark.claim("words.textbook")
@given(strategies.word_corpora, strategies.word_budgets, strategies.end_of_word_markers)
def test_train_words_equals_textbook(bpe, corpus, num_merges, marker):
    result = word_merges_of(bpe.train_words(corpus, num_merges, end_of_word=marker))
    assert result == oracle.words.train_words(corpus, num_merges, marker)


@pytest.mark.claim("words.segmentation-replays")
@given(strategies.word_corpora, strategies.word_budgets, strategies.end_of_word_markers)
def test_training_words_segment_as_training_left_them(bpe, corpus, num_merges, marker):
    merges = bpe.train_words(corpus, num_merges, end_of_word=marker)
    pairs = [pair for pair, _ in word_merges_of(merges)]
    for word in oracle.words.word_counts(corpus):
        assert symbols_of(bpe.segment_word(word, merges, end_of_word=marker)) == \
            oracle.words.segment_word(word, pairs, marker)


@pytest.mark.claim("words.segmentation-replays")
@given(strategies.word_corpora, strategies.word_budgets, strategies.end_of_word_markers,
       st.text(alphabet="abcde", max_size=10))
def test_segments_join_back_to_the_word_and_marker(bpe, corpus, num_merges, marker, word):
    merges = bpe.train_words(corpus, num_merges, end_of_word=marker)
    assert "".join(symbols_of(bpe.segment_word(word, merges, end_of_word=marker))) == word + (marker or "")


@pytest.mark.claim("words.segmentation-replays")
@given(strategies.word_corpora, strategies.word_budgets, strategies.end_of_word_markers,
       st.text(alphabet="abcde", max_size=10))
def test_more_merges_never_lengthen_a_segmentation(bpe, corpus, num_merges, marker, word):
    pairs = [pair for pair, _ in word_merges_of(bpe.train_words(corpus, num_merges, end_of_word=marker))]
    lengths = [len(bpe.segment_word(word, pairs[:k], end_of_word=marker)) for k in range(len(pairs) + 1)]
    assert lengths == sorted(lengths, reverse=True)


@pytest.mark.claim("words.fertility")
def test_text_like_the_corpus_costs_fewer_tokens_per_word(bpe):
    merges = bpe.train_words(TOY_CORPUS, 8)

    def fertility(text: str) -> float:
        words = text.split()
        return sum(len(bpe.segment_word(word, merges)) for word in words) / len(words)

    assert fertility("the cat sat on the mat") < fertility("quick brown foxes jump")
