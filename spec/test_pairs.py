"""Level pairs: get_stats counts every adjacent pair, overlaps included, in first-seen order."""

from __future__ import annotations

import pytest
from hypothesis import given

from spec import oracle, strategies
from spec.blame import checking
from spec.compare import expect_equal
from spec.shapes import pairs_of

pytestmark = pytest.mark.level("pairs")


# The worked cases of spec/cases/pairs.json run here too, one test each, as
# test_get_stats_case[<case id>] (made by spec/cases/collect.py).


@pytest.mark.claim("pairs.adjacent-overlapping", "pairs.first-seen-order")
@given(strategies.small_id_lists)
def test_get_stats_equals_oracle_in_counts_and_order(bpe, ids):
    actual, expected = pairs_of(bpe.get_stats(list(ids))), pairs_of(oracle.get_stats(ids))
    with checking("pairs.adjacent-overlapping"):
        expect_equal(dict(actual), dict(expected), f"counts of the pairs of {ids}")
    with checking("pairs.first-seen-order"):
        expect_equal([pair for pair, _ in actual], [pair for pair, _ in expected], f"order of the pairs of {ids}")


@pytest.mark.claim("pairs.adjacent-overlapping")
@given(strategies.id_lists)
def test_counts_add_up_to_length_minus_one(bpe, ids):
    assert sum(n for _, n in pairs_of(bpe.get_stats(list(ids)))) == max(len(ids) - 1, 0)


@pytest.mark.claim("pairs.short-input")
@given(strategies.small_id_lists)
def test_get_stats_leaves_its_input_alone(bpe, ids):
    given_ids = list(ids)
    bpe.get_stats(given_ids)
    assert given_ids == ids


@pytest.mark.corpus("tinyshakespeare")
@pytest.mark.claim("train.shakespeare-top-count")
def test_most_frequent_pair_in_shakespeare(bpe, corpus):
    stats = pairs_of(bpe.get_stats(list(corpus("tinyshakespeare").encode("utf-8"))))
    assert max(stats, key=lambda item: item[1]) == ((101, 32), 27643)
